/** Avatar menu: dashboard, account, profile switch (site ↔ api) and log out. */
import { DashboardOutlined, LogoutOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import type { Profile } from '@herald/shared';
import { Avatar, Dropdown, Flex, type MenuProps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { HOME_PATH } from '../router/routes';
import { logout, switchProfile } from '../session/session';
import { useSession } from '../session/useSession';

export function AvatarMenu({ compact }: { compact: boolean }) {
  const { t } = useTranslation('layout');
  const { user } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const otherProfile: Profile = user?.profile === 'api' ? 'site' : 'api';

  async function signOut() {
    const redirect = `${location.pathname}${location.search}${location.hash}`;
    await logout();
    navigate(`/login?redirect=${encodeURIComponent(redirect)}`, { replace: true });
  }

  async function swapProfile() {
    // A failure is reported by the HTTP client; the user stays where they are.
    await switchProfile(otherProfile).then(
      () => navigate(HOME_PATH),
      () => undefined,
    );
  }

  const items: MenuProps['items'] = [
    {
      key: 'dashboard',
      icon: <DashboardOutlined />,
      label: <span data-testid="avatar-menu-dashboard">{t('avatar.dashboard')}</span>,
    },
    { key: 'account', icon: <UserOutlined />, label: <span data-testid="avatar-menu-account">{t('avatar.account')}</span> },
    {
      key: 'profile',
      icon: <SwapOutlined />,
      label: <span data-testid="avatar-menu-profile">{t(`avatar.switchTo.${otherProfile}`)}</span>,
    },
    { type: 'divider' },
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      danger: true,
      label: <span data-testid="avatar-menu-logout">{t('avatar.logout')}</span>,
    },
  ];

  const actions: Record<string, () => void> = {
    dashboard: () => navigate(HOME_PATH),
    account: () => navigate('/settings/account'),
    profile: () => void swapProfile(),
    logout: () => void signOut(),
  };

  return (
    <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => actions[key]?.() }}>
      <button
        type="button"
        data-testid="avatar-menu"
        aria-label={t('avatar.menu')}
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 8,
          background: 'none',
          border: 0,
          cursor: 'pointer',
          padding: '0 4px',
        }}
      >
        <Avatar size="small" src={user?.avatar ? `/avatars/${user.avatar}` : undefined} icon={<UserOutlined />} alt="" />
        {!compact && (
          <Flex vertical align="start" style={{ lineHeight: 1.2 }}>
            <Typography.Text ellipsis style={{ maxWidth: 160 }}>
              {user?.name || user?.username}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 11 }}>
              {t(`avatar.profile.${user?.profile ?? 'site'}`)}
            </Typography.Text>
          </Flex>
        )}
      </button>
    </Dropdown>
  );
}
