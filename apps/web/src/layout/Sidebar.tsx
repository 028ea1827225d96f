/** Sidebar menu built from the route table, filtered by the user's roles; hidden routes stay out. */
import { Menu, type MenuProps, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCurrentRoute } from '../router/matches';
import { filterByRoles, HOME_PATH, PRIVATE_ROUTES, type ResolvedRoute } from '../router/routes';
import { ROUTE_ICONS } from './routeIcons';

type MenuItem = Required<MenuProps>['items'][number];

function toItems(routes: readonly ResolvedRoute[], t: (key: string) => string): MenuItem[] {
  return routes
    .filter((route) => !route.hidden)
    .map((route) => {
      const children = toItems(route.children, t);
      const label = t(route.title);
      const icon = route.icon ? ROUTE_ICONS[route.icon] : undefined;
      // A title shows the whole name where the 210 px sidebar cuts a long one (Russian, Ukrainian).
      if (children.length > 0) return { key: route.fullPath, icon, label: <span title={label}>{label}</span>, children };
      return {
        key: route.fullPath,
        icon,
        label: (
          <span data-testid={`menu-${route.fullPath}`} title={label}>
            {label}
          </span>
        ),
      };
    });
}

function ancestorsOf(path: string): string[] {
  const segments = path.split('/').filter(Boolean);
  return segments.slice(0, -1).map((_, index) => `/${segments.slice(0, index + 1).join('/')}`);
}

export function Logo({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation('layout');
  return (
    <Link
      to={HOME_PATH}
      data-testid="sidebar-logo"
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'flex-start',
        gap: 10,
        height: 56,
        padding: collapsed ? 0 : '0 20px',
      }}
    >
      <img src="/favicon.svg" width={28} height={28} alt="" />
      {!collapsed && (
        <Typography.Text strong style={{ color: '#fff', fontSize: 18, whiteSpace: 'nowrap' }}>
          {t('appName')}
        </Typography.Text>
      )}
    </Link>
  );
}

export function SidebarMenu({ roles, collapsed }: { roles: readonly string[]; collapsed: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { chain, screen } = useCurrentRoute();
  const items = useMemo(() => toItems(filterByRoles(PRIVATE_ROUTES, roles), t), [roles, t]);
  const selected = screen?.activeMenu ?? screen?.fullPath ?? chain.at(-1)?.fullPath ?? '';
  const [openKeys, setOpenKeys] = useState<string[]>(() => ancestorsOf(selected));
  const [lastSelected, setLastSelected] = useState(selected);

  // Opening a screen from elsewhere (a tab, a link) unfolds its section, keeping the user's other open sections.
  if (selected !== lastSelected) {
    setLastSelected(selected);
    setOpenKeys((keys) => [...new Set([...keys, ...ancestorsOf(selected)])]);
  }

  return (
    <Menu
      theme="dark"
      mode="inline"
      // The spec's 210 px leave the longest section title (ru "Администрирование") clear of its arrow only so.
      inlineIndent={12}
      items={items}
      selectedKeys={[selected]}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={({ key }) => navigate(key)}
      style={{ borderInlineEnd: 0 }}
    />
  );
}
