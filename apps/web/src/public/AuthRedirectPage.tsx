/** /authredirect: the end of a single sign-on — adopts the token from the query or hash, then opens the redirect target. */
import { Flex, Result, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { signInWithToken } from '../session/session';
import { PublicLayout } from './PublicLayout';
import { redirectTarget } from './redirect';

/** Query parameters first, then any the identity provider put in the hash. */
function linkParams(search: string, hash: string): URLSearchParams {
  const params = new URLSearchParams(search);
  for (const [name, value] of new URLSearchParams(hash.replace(/^#/, ''))) if (!params.has(name)) params.set(name, value);
  return params;
}

export default function AuthRedirectPage() {
  const { t } = useTranslation('public');
  const location = useLocation();
  const params = useMemo(() => linkParams(location.search, location.hash), [location.search, location.hash]);
  const token = params.get('token');
  const [outcome, setOutcome] = useState<'done' | 'failed'>();
  const started = useRef(false);

  useEffect(() => {
    // Guarded so a double-run effect (StrictMode) does not sign in twice.
    if (!token || started.current) return;
    started.current = true;
    signInWithToken(token).then(
      () => setOutcome('done'),
      () => setOutcome('failed'),
    );
  }, [token]);

  if (outcome === 'done') return <Navigate to={redirectTarget(params)} replace />;

  if (!token || outcome === 'failed') {
    return (
      <PublicLayout>
        <Result
          data-testid="authredirect-error"
          status="error"
          title={t(token ? 'authRedirect.failed' : 'authRedirect.missingToken')}
          extra={<Link to="/login">{t('authRedirect.toLogin')}</Link>}
        />
      </PublicLayout>
    );
  }

  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }} data-testid="authredirect-loading">
      <Spin size="large" />
    </Flex>
  );
}
