/**
 * The one route table (spec section 2, roles from ARCHITECTURE.md). The sidebar, breadcrumb,
 * tabs strip and access filter all read it; `title` is an i18n key that may use the route's params.
 */
import { hasAnyRole, type Role } from '@herald/shared';
import { lazy, type ReactNode } from 'react';

const Dashboard = lazy(() => import('../dashboard/Dashboard'));
const Campaigns = lazy(() => import('../sections/mass-mail/Campaigns'));
const CampaignCreate = lazy(() => import('../sections/mass-mail/CampaignCreate'));
const CampaignView = lazy(() => import('../sections/mass-mail/CampaignView'));
const CampaignStatistics = lazy(() => import('../sections/mass-mail/CampaignStatistics'));
const Contacts = lazy(() => import('../sections/mass-mail/Contacts'));
const ContactsImport = lazy(() => import('../sections/mass-mail/ContactsImport'));
const ContactView = lazy(() => import('../sections/mass-mail/ContactView'));
const TemplateList = lazy(() => import('../sections/templates/TemplateList'));
const TemplateEditor = lazy(() => import('../sections/templates/TemplateEditor'));
const TemplateBuilder = lazy(() => import('../sections/templates/TemplateBuilder'));
const TemplateVariables = lazy(() => import('../sections/templates/TemplateVariables'));
const Providers = lazy(() => import('../sections/configs/Providers'));
const Groups = lazy(() => import('../sections/configs/Groups'));
const Notifications = lazy(() => import('../sections/settings/Notifications'));
const Account = lazy(() => import('../sections/settings/Account'));
const Reports = lazy(() => import('../sections/statistics/Reports'));
const MessageLog = lazy(() => import('../sections/statistics/MessageLog'));
const Documentation = lazy(() => import('../sections/documentation/Documentation'));
const ApiKeys = lazy(() => import('../sections/integration/ApiKeys'));
const Webhooks = lazy(() => import('../sections/integration/Webhooks'));
const FeedbackInbox = lazy(() => import('../sections/admin/FeedbackInbox'));
const SystemOutbox = lazy(() => import('../sections/admin/SystemOutbox'));

/** Icons are named here and drawn by the sidebar, so the route table adds no icon code to the first load. */
export type RouteIcon =
  | 'api'
  | 'appstore'
  | 'barChart'
  | 'bell'
  | 'book'
  | 'build'
  | 'cluster'
  | 'code'
  | 'dashboard'
  | 'fileText'
  | 'form'
  | 'key'
  | 'link'
  | 'list'
  | 'mail'
  | 'message'
  | 'plusCircle'
  | 'profile'
  | 'send'
  | 'setting'
  | 'table'
  | 'team'
  | 'user';

export interface RouteEntry {
  /** Segment relative to the parent entry; top-level entries start with '/'. */
  path: string;
  title: string;
  icon?: RouteIcon;
  roles?: readonly Role[];
  /** Kept out of the sidebar (detail screens reached from a list). */
  hidden?: boolean;
  /** The view is unmounted when its tab is left instead of being kept alive. */
  noCache?: boolean;
  /** The tab cannot be closed and is open from the start. */
  affix?: boolean;
  /** Sidebar item to highlight while a hidden route is open. */
  activeMenu?: string;
  /** Default child, relative to this entry. */
  redirect?: string;
  element?: ReactNode;
  children?: RouteEntry[];
}

export interface ResolvedRoute extends Omit<RouteEntry, 'children' | 'redirect'> {
  fullPath: string;
  redirect?: string;
  children: ResolvedRoute[];
}

const SITE: readonly Role[] = ['site', 'admin'];
const API: readonly Role[] = ['api', 'admin'];
const ADMIN: readonly Role[] = ['admin'];

const TABLE: RouteEntry[] = [
  { path: '/dashboard', title: 'router:dashboard', icon: 'dashboard', affix: true, element: <Dashboard /> },
  {
    path: '/mass-mail',
    title: 'router:massMail',
    icon: 'send',
    roles: SITE,
    redirect: 'campaigns',
    children: [
      { path: 'campaigns', title: 'router:campaigns', icon: 'list', element: <Campaigns /> },
      {
        path: 'campaigns/create',
        title: 'router:campaignCreate',
        icon: 'plusCircle',
        noCache: true,
        element: <CampaignCreate />,
      },
      { path: 'contacts', title: 'router:contacts', icon: 'team', element: <Contacts /> },
      {
        path: 'campaigns/view/:id',
        title: 'router:campaignView',
        hidden: true,
        noCache: true,
        activeMenu: '/mass-mail/campaigns',
        element: <CampaignView />,
      },
      {
        path: 'campaigns/statistics/:id',
        title: 'router:campaignStatistics',
        hidden: true,
        noCache: true,
        activeMenu: '/mass-mail/campaigns',
        element: <CampaignStatistics />,
      },
      {
        path: 'contacts/import',
        title: 'router:contactsImport',
        hidden: true,
        noCache: true,
        activeMenu: '/mass-mail/contacts',
        element: <ContactsImport />,
      },
      {
        path: 'contacts/view/:id',
        title: 'router:contactView',
        hidden: true,
        noCache: true,
        activeMenu: '/mass-mail/contacts',
        element: <ContactView />,
      },
    ],
  },
  {
    path: '/templates',
    title: 'router:templates',
    icon: 'fileText',
    roles: SITE,
    redirect: 'list',
    children: [
      { path: 'list', title: 'router:templateList', icon: 'profile', element: <TemplateList /> },
      { path: 'create', title: 'router:templateCreate', icon: 'form', noCache: true, element: <TemplateEditor mode="create" /> },
      {
        path: 'edit/:name',
        title: 'router:templateEdit',
        hidden: true,
        noCache: true,
        activeMenu: '/templates/list',
        element: <TemplateEditor mode="edit" />,
      },
      {
        path: 'copy/:name',
        title: 'router:templateCopy',
        hidden: true,
        noCache: true,
        activeMenu: '/templates/list',
        element: <TemplateEditor mode="copy" />,
      },
      { path: 'builder', title: 'router:templateBuilder', icon: 'build', element: <TemplateBuilder /> },
      { path: 'variables', title: 'router:templateVariables', icon: 'code', element: <TemplateVariables /> },
    ],
  },
  {
    path: '/configs',
    title: 'router:configs',
    icon: 'api',
    redirect: 'providers',
    children: [
      { path: 'providers', title: 'router:providers', icon: 'appstore', element: <Providers /> },
      { path: 'groups', title: 'router:groups', icon: 'cluster', element: <Groups /> },
    ],
  },
  {
    path: '/statistics',
    title: 'router:statistics',
    icon: 'barChart',
    redirect: 'email',
    children: (['email', 'sms'] as const).map((channel) => ({
      path: channel,
      title: `router:${channel}`,
      icon: channel === 'email' ? 'mail' : 'message',
      redirect: 'reports',
      children: [
        { path: 'reports', title: 'router:reports', icon: 'barChart', element: <Reports channel={channel} /> },
        { path: 'log', title: 'router:log', icon: 'table', element: <MessageLog channel={channel} /> },
      ],
    })),
  },
  {
    path: '/settings',
    title: 'router:settings',
    icon: 'setting',
    redirect: 'notifications',
    children: [
      { path: 'notifications', title: 'router:notifications', icon: 'bell', element: <Notifications /> },
      { path: 'account', title: 'router:account', icon: 'user', element: <Account /> },
    ],
  },
  {
    path: '/integration',
    title: 'router:integration',
    icon: 'link',
    roles: API,
    redirect: 'keys',
    children: [
      { path: 'keys', title: 'router:apiKeys', icon: 'key', element: <ApiKeys /> },
      { path: 'webhooks', title: 'router:webhooks', icon: 'send', element: <Webhooks /> },
    ],
  },
  {
    path: '/documentation',
    title: 'router:documentation',
    icon: 'book',
    roles: API,
    redirect: 'api',
    children: [
      { path: 'api', title: 'router:docApi', icon: 'api', element: <Documentation focus="api" /> },
      { path: 'sdk', title: 'router:docSdk', icon: 'code', element: <Documentation focus="sdk" /> },
    ],
  },
  {
    path: '/admin',
    title: 'router:admin',
    icon: 'team',
    roles: ADMIN,
    redirect: 'feedback',
    children: [
      { path: 'feedback', title: 'router:adminFeedback', icon: 'message', element: <FeedbackInbox /> },
      { path: 'outbox', title: 'router:adminOutbox', icon: 'mail', element: <SystemOutbox /> },
    ],
  },
];

function resolve(entries: readonly RouteEntry[], base: string): ResolvedRoute[] {
  return entries.map(({ children, redirect, ...entry }) => {
    const fullPath = entry.path.startsWith('/') ? entry.path : `${base}/${entry.path}`;
    return {
      ...entry,
      fullPath,
      redirect: redirect ? `${fullPath}/${redirect}` : undefined,
      children: resolve(children ?? [], fullPath),
    };
  });
}

export const PRIVATE_ROUTES: readonly ResolvedRoute[] = resolve(TABLE, '');

export const HOME_PATH = '/dashboard';

/** Drops the routes (and, with them, their children) that none of the user's roles may open. */
export function filterByRoles(routes: readonly ResolvedRoute[], roles: readonly string[]): ResolvedRoute[] {
  return routes
    .filter((route) => hasAnyRole(roles, route.roles))
    .map((route) => ({ ...route, children: filterByRoles(route.children, roles) }));
}

/** Every route along the way must allow the user, since a section's roles cover its children. */
export function canOpen(chain: readonly ResolvedRoute[], roles: readonly string[]): boolean {
  return chain.every((route) => hasAnyRole(roles, route.roles));
}

/** Chains (section down to screen) of the affixed routes, whose tabs are open from the start. */
export function affixChains(
  routes: readonly ResolvedRoute[] = PRIVATE_ROUTES,
  parents: readonly ResolvedRoute[] = [],
): ResolvedRoute[][] {
  return routes.flatMap((route) => {
    const chain = [...parents, route];
    return [...(route.affix ? [chain] : []), ...affixChains(route.children, chain)];
  });
}

export function findRoute(path: string, routes: readonly ResolvedRoute[] = PRIVATE_ROUTES): ResolvedRoute | undefined {
  for (const route of routes) {
    if (route.fullPath === path) return route;
    const found = findRoute(path, route.children);
    if (found) return found;
  }
  return undefined;
}
