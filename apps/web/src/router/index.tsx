/**
 * The router: public routes outside the session guard, everything else inside RequireAuth and the
 * private layout, built from the route table. Every screen is its own lazily loaded chunk.
 */
import { lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RequireAuth } from '../session/RequireAuth';
import { PageSpinner } from '../ui/PageSpinner';
import { RouteError } from '../ui/RouteError';
import type { RouteHandle } from './matches';
import { RootFrame } from './RootFrame';
import { HOME_PATH, PRIVATE_ROUTES, type ResolvedRoute } from './routes';

const PrivateLayout = lazy(() => import('../layout/PrivateLayout'));
const LoginPage = lazy(() => import('../public/LoginPage'));
const SignupPage = lazy(() => import('../public/SignupPage'));
const ForgotPage = lazy(() => import('../public/ForgotPage'));
const ResetPage = lazy(() => import('../public/ResetPage'));
const AuthRedirectPage = lazy(() => import('../public/AuthRedirectPage'));
const PublicDocPage = lazy(() => import('../pages/PublicDocPage'));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage'));
const UnauthorizedPage = lazy(() => import('../pages/UnauthorizedPage'));

function page(element: ReactNode): ReactNode {
  return <Suspense fallback={<PageSpinner fullScreen />}>{element}</Suspense>;
}

function toRouteObject(route: ResolvedRoute): RouteObject {
  const children = route.children.map(toRouteObject);
  if (route.redirect) children.unshift({ index: true, element: <Navigate to={route.redirect} replace /> });
  const handle: RouteHandle = { route };
  return {
    path: route.path,
    handle,
    // A section without a screen of its own renders its children through React Router's default <Outlet />.
    ...(route.element
      ? { element: <Suspense fallback={<PageSpinner />}>{route.element}</Suspense>, errorElement: <RouteError /> }
      : {}),
    ...(children.length > 0 ? { children } : {}),
  };
}

const PUBLIC: RouteObject[] = [
  { path: '/login', element: page(<LoginPage />) },
  { path: '/signup', element: page(<SignupPage />) },
  { path: '/forgot', element: page(<ForgotPage />) },
  { path: '/reset', element: page(<ResetPage />) },
  { path: '/authredirect', element: page(<AuthRedirectPage />) },
  { path: '/doc', element: page(<PublicDocPage />) },
  { path: '/404', element: page(<NotFoundPage />) },
];

export const router = createBrowserRouter([
  {
    element: <RootFrame />,
    errorElement: <RouteError />,
    children: [
      ...PUBLIC,
      // Not among the spec's public routes: only a signed-in user can lack a role.
      { path: '/401', element: <RequireAuth>{page(<UnauthorizedPage />)}</RequireAuth> },
      {
        path: '/',
        element: <RequireAuth>{page(<PrivateLayout />)}</RequireAuth>,
        children: [{ index: true, element: <Navigate to={HOME_PATH} replace /> }, ...PRIVATE_ROUTES.map(toRouteObject)],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
]);
