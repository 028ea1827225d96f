/** Top bar: sidebar toggle, breadcrumb, server status, error log, language, settings and the avatar menu. */
import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { AvatarMenu } from './AvatarMenu';
import { Breadcrumbs } from './Breadcrumbs';
import { ErrorLogBadge } from './ErrorLogBadge';
import { LanguageSelect } from './LanguageSelect';
import { ServerStatusDot } from './ServerStatusDot';

export interface TopBarProps {
  sidebarOpen: boolean;
  mobile: boolean;
  onToggleSidebar: () => void;
  onOpenSettings: () => void;
}

export function TopBar({ sidebarOpen, mobile, onToggleSidebar, onOpenSettings }: TopBarProps) {
  const { t } = useTranslation('layout');
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      justify="space-between"
      gap={8}
      style={{
        height: 50,
        paddingInline: 8,
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <Flex align="center" gap={8} style={{ minWidth: 0, overflow: 'hidden' }}>
        <Button
          type="text"
          data-testid="sidebar-toggle"
          aria-label={t(sidebarOpen ? 'sidebar.close' : 'sidebar.open')}
          aria-expanded={sidebarOpen}
          icon={sidebarOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={onToggleSidebar}
        />
        <Breadcrumbs />
      </Flex>
      <Flex align="center" gap={4} style={{ flexShrink: 0 }}>
        <ServerStatusDot compact={mobile} />
        <ErrorLogBadge />
        <LanguageSelect />
        <Tooltip title={t('settings.title')}>
          <Button
            type="text"
            data-testid="settings-button"
            aria-label={t('settings.title')}
            icon={<SettingOutlined />}
            onClick={onOpenSettings}
          />
        </Tooltip>
        <AvatarMenu compact={mobile} />
      </Flex>
    </Flex>
  );
}
