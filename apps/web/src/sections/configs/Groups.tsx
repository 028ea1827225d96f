/** Provider groups: configurations ordered by priority for failover. */
import { ClusterOutlined } from '@ant-design/icons';
import { UNSELECTED_CONFIG_PRIORITY } from '@herald/shared';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function Groups() {
  const { t } = useTranslation('configs');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="groups-empty"
      icon={<ClusterOutlined />}
      title={t('groups.title')}
      description={t('groups.description')}
      capabilities={textList(t, 'groups.capabilities', { priority: UNSELECTED_CONFIG_PRIORITY })}
      actions={<Button onClick={() => navigate('/configs/providers')}>{t('actions.providers')}</Button>}
    />
  );
}
