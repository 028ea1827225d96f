/** Breadcrumb from the route table: section, group, screen; ancestors link to their default screen. */
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useCurrentRoute } from '../router/matches';
import { usePageTitles } from '../router/pageTitle';
import { findRoute } from '../router/routes';

export function Breadcrumbs() {
  const { t } = useTranslation();
  const { chain, screen, params } = useCurrentRoute();
  const own = usePageTitles().get(useLocation().pathname);
  // A hidden detail screen sits under the list it was opened from, e.g. Campaigns › Campaign 12.
  const listRoute = screen?.activeMenu ? findRoute(screen.activeMenu) : undefined;
  const trail = listRoute ? [...chain.slice(0, -1), listRoute, ...chain.slice(-1)] : chain;
  const items = trail.map((route, index) => {
    const last = index === trail.length - 1;
    const title = last && own !== undefined ? own : t(route.title, params);
    return { key: route.fullPath, title: last ? title : <Link to={route.fullPath}>{title}</Link> };
  });
  return <Breadcrumb data-testid="breadcrumb" items={items} />;
}
