/** Notification hooks (Slack) and the SMTP bounce address. */
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function Notifications() {
  const { t } = useTranslation('settings');
  return (
    <EmptyState
      testId="notifications-empty"
      icon={<BellOutlined />}
      title={t('notifications.title')}
      description={t('notifications.description')}
      capabilities={textList(t, 'notifications.capabilities')}
    />
  );
}
