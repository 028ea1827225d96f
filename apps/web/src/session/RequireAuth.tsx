/** Guards the private screens: no token goes to /login with the full path as redirect; a token without user info loads it. */
import { Flex, Spin } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { loadUser } from './session';
import { useSession } from './useSession';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { token, user } = useSession();
  const location = useLocation();

  useEffect(() => {
    // A failed load signs out, which re-renders this guard into the redirect below.
    if (token && !user) loadUser().catch(() => undefined);
  }, [token, user]);

  if (!token) {
    const redirect = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/login?redirect=${encodeURIComponent(redirect)}`} replace />;
  }
  if (!user) {
    return (
      <Flex align="center" justify="center" style={{ minHeight: '100vh' }} data-testid="session-loading">
        <Spin size="large" />
      </Flex>
    );
  }
  return children;
}
