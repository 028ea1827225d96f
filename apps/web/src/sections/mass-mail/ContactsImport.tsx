/** Contact import (spec section 2): CSV or TXT with a preview of the first records. */
import { UploadOutlined } from '@ant-design/icons';
import { IMPORT_PREVIEW_ROWS } from '@herald/shared';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function ContactsImport() {
  const { t } = useTranslation('mass-mail');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="contacts-import-empty"
      icon={<UploadOutlined />}
      title={t('contactsImport.title')}
      description={t('contactsImport.description', { rows: IMPORT_PREVIEW_ROWS })}
      capabilities={textList(t, 'contactsImport.capabilities')}
      actions={<Button onClick={() => navigate('/mass-mail/contacts')}>{t('actions.backToContacts')}</Button>}
    />
  );
}
