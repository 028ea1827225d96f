/** The signed-in user's account: password, avatar, time zone and profile. */
import { UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/useSession';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function Account() {
  const { t } = useTranslation('settings');
  const { user } = useSession();
  return (
    <EmptyState
      testId="account-empty"
      icon={<UserOutlined />}
      title={user?.username ? t('account.titleFor', { name: user.username }) : t('account.title')}
      description={t('account.description')}
      capabilities={textList(t, 'account.capabilities')}
    />
  );
}
