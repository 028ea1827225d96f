/**
 * The signed-in frame (spec section 2): sidebar, top bar, tabs strip and the kept-alive content area, inside the
 * providers only signed-in screens use (antd App, TanStack Query), so public pages load neither.
 */
import { SIDEBAR_WIDTH_PX } from '@herald/shared';
import { QueryClient, QueryClientProvider, usePrefetchQuery } from '@tanstack/react-query';
import { App as AntApp, Drawer, Layout, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useOutlet } from 'react-router';
import { ApiError, getPresenter, setErrorPresenter } from '../api/http';
import { useCurrentRoute } from '../router/matches';
import { usePageTitles } from '../router/pageTitle';
import { canOpen } from '../router/routes';
import { SessionWatcher } from '../session/SessionWatcher';
import { getSnapshot, subscribe } from '../session/session';
import { useSession } from '../session/useSession';
import { setDisplayTimeZone } from '../utils/date';
import { providerConfigsQuery, providerTypesQuery } from './accountData';
import { SettingsPanel } from './SettingsPanel';
import { Logo, SidebarMenu } from './Sidebar';
import { useSettings } from './settings';
import { useSidebarOpen } from './sidebarState';
import { TagsView } from './TagsView';
import { TopBar } from './TopBar';
import { useIsMobile } from './useIsMobile';
import { type CurrentView, tabTitle, useVisitedViews } from './useVisitedViews';
import { ViewHost } from './ViewHost';

const COLLAPSED_WIDTH_PX = 64;

// Dates follow the signed-in user's zone; only signed-in screens show dates, so the wiring lives here.
setDisplayTimeZone(getSnapshot().user?.timeZone);
subscribe(() => setDisplayTimeZone(getSnapshot().user?.timeZone));

/** What does not exist will not on a second ask: a 404 is shown at once, anything else retried as usual. */
const RETRIES = 3;
const worthRetrying = (failures: number, error: Error) =>
  failures < RETRIES && !(error instanceof ApiError && error.status === 404);

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 30_000, retry: worthRetrying } },
});

/** Lets the HTTP client's messages and dialogs use antd's App context while signed in, so they follow the theme and locale. */
function ErrorPresenterBinding() {
  const { message, notification, modal } = AntApp.useApp();
  useEffect(() => {
    const previous = getPresenter();
    setErrorPresenter({ message, notification, modal });
    // Signing out unmounts this App, whose holder could no longer show anything the public pages report.
    return () => setErrorPresenter(previous);
  }, [message, notification, modal]);
  return null;
}

export default function PrivateLayout() {
  return (
    <AntApp>
      <ErrorPresenterBinding />
      <QueryClientProvider client={queryClient}>
        <PrivateFrame />
      </QueryClientProvider>
    </AntApp>
  );
}

function PrivateFrame() {
  const { roles } = useSession();
  const settings = useSettings();
  const mobile = useIsMobile();
  const location = useLocation();
  const outlet = useOutlet();
  const { chain, screen, params } = useCurrentRoute();
  const { token } = theme.useToken();
  const { t } = useTranslation('layout');
  const [sidebarOpen, setSidebarOpen] = useSidebarOpen();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [lastPath, setLastPath] = useState(location.pathname);
  usePrefetchQuery(providerTypesQuery);
  usePrefetchQuery(providerConfigsQuery);

  // Mobile mode closes the sidebar on every route change (spec section 2).
  if (location.pathname !== lastPath) {
    setLastPath(location.pathname);
    setDrawerOpen(false);
  }

  const allowed = canOpen(chain, roles);
  const current: CurrentView | undefined =
    screen && allowed
      ? { path: location.pathname, href: `${location.pathname}${location.search}`, chain, params, element: outlet }
      : undefined;
  const tabs = useVisitedViews(current, roles, settings.tagsView);
  const titles = usePageTitles();

  const documentTitle = screen
    ? `${tabTitle({ chain, params }, t, titles.get(location.pathname))} · ${t('appName')}`
    : t('appName');
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);

  if (!allowed) return <Navigate to="/401" replace />;

  const sidebar = (
    <>
      {settings.sidebarLogo && <Logo collapsed={!mobile && !sidebarOpen} />}
      <SidebarMenu roles={roles} collapsed={!mobile && !sidebarOpen} />
    </>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {mobile ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          closable={false}
          size={SIDEBAR_WIDTH_PX}
          styles={{ body: { padding: 0, background: '#001529' } }}
        >
          <div data-testid="sidebar">{sidebar}</div>
        </Drawer>
      ) : (
        <Layout.Sider
          data-testid="sidebar"
          width={SIDEBAR_WIDTH_PX}
          collapsedWidth={COLLAPSED_WIDTH_PX}
          collapsed={!sidebarOpen}
          trigger={null}
          collapsible
          style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
        >
          {sidebar}
        </Layout.Sider>
      )}
      <Layout style={{ minWidth: 0 }}>
        <header style={settings.fixedHeader ? { position: 'sticky', top: 0, zIndex: 10 } : undefined} data-testid="header">
          <TopBar
            sidebarOpen={mobile ? drawerOpen : sidebarOpen}
            mobile={mobile}
            onToggleSidebar={() => (mobile ? setDrawerOpen(!drawerOpen) : setSidebarOpen(!sidebarOpen))}
            onOpenSettings={() => setSettingsOpen(true)}
          />
          {settings.tagsView && <TagsView tabs={tabs} currentPath={current?.path} />}
        </header>
        <Layout.Content
          // Room below the last row to scroll it clear of the floating feedback button.
          style={{ padding: mobile ? 12 : 16, paddingBottom: 96, background: token.colorBgLayout }}
          data-testid="content"
        >
          <ViewHost views={tabs.views} currentPath={current?.path} outlet={outlet} />
        </Layout.Content>
      </Layout>
      <SettingsPanel open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <SessionWatcher />
    </Layout>
  );
}
