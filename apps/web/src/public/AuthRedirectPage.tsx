/**
 * /authredirect: the end of a single sign-on. Either the identity provider sent the browser back with a code
 * (exchanged at /api/sso/exchange for a Herald token), or a link carries a token in its query or hash.
 */
import { Flex, Result, Spin, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { ApiError, http } from '../api/http';
import { signInWithToken } from '../session/session';
import { PublicLayout } from './PublicLayout';
import { redirectTarget } from './redirect';

/** Query parameters first, then any the identity provider put in the hash. */
function linkParams(search: string, hash: string): URLSearchParams {
  const params = new URLSearchParams(search);
  for (const [name, value] of new URLSearchParams(hash.replace(/^#/, ''))) if (!params.has(name)) params.set(name, value);
  return params;
}

type Outcome = { kind: 'done'; target: string } | { kind: 'failed'; reason?: string };

export default function AuthRedirectPage() {
  const { t } = useTranslation('public');
  const location = useLocation();
  const params = useMemo(() => linkParams(location.search, location.hash), [location.search, location.hash]);
  const token = params.get('token');
  // An OpenID Connect callback: a code (or the provider's error) with the state it was started with.
  const isCallback = params.has('state') && (params.has('code') || params.has('error'));
  const [outcome, setOutcome] = useState<Outcome>();
  const started = useRef(false);

  useEffect(() => {
    // Guarded so a double-run effect (StrictMode) does not sign in twice: the callback is single-use.
    if (started.current || (!token && !isCallback)) return;
    started.current = true;
    const signIn = token
      ? signInWithToken(token).then(() => redirectTarget(params))
      : http
          .post<{ token: string; redirect: string }>('/sso/exchange', { callback: params.toString() }, { silent: true })
          .then(async (answer) => {
            await signInWithToken(answer.token);
            return redirectTarget(new URLSearchParams({ redirect: answer.redirect }));
          });
    signIn.then(
      (target) => setOutcome({ kind: 'done', target }),
      (error: unknown) =>
        setOutcome({ kind: 'failed', reason: error instanceof ApiError && error.fromServer ? error.message : undefined }),
    );
  }, [token, isCallback, params]);

  if (outcome?.kind === 'done') return <Navigate to={outcome.target} replace />;

  if ((!token && !isCallback) || outcome?.kind === 'failed') {
    return (
      <PublicLayout>
        <Result
          data-testid="authredirect-error"
          status="error"
          title={t(token || isCallback ? 'authRedirect.failed' : 'authRedirect.missingToken')}
          subTitle={outcome?.kind === 'failed' ? outcome.reason : undefined}
          extra={<Link to="/login">{t('authRedirect.toLogin')}</Link>}
        />
      </PublicLayout>
    );
  }

  return (
    <Flex vertical gap={16} align="center" justify="center" style={{ minHeight: '100vh' }} data-testid="authredirect-loading">
      <Spin size="large" />
      {isCallback && <Typography.Text type="secondary">{t('authRedirect.exchanging')}</Typography.Text>}
    </Flex>
  );
}
