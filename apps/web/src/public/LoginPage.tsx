/** /login: username and password; on success the user info is loaded and the redirect target opens. */
import { checkUsername, isErrorKey, type RuleFailure } from '@herald/shared';
import { Button, Flex, Input, theme } from 'antd';
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ApiError, http, reportError } from '../api/http';
import { loadUser, login } from '../session/session';
import { useSession } from '../session/useSession';
import { PublicLayout } from './PublicLayout';
import { redirectTarget } from './redirect';
import { failureText } from './rules';

interface LoginValues {
  username: string;
  password: string;
}

type FieldName = keyof LoginValues;

/** Failures are kept as keys so their texts follow a language switch. */
type FieldFailures = Partial<Record<FieldName, RuleFailure>>;

/** A wrong login is kept as a key so its text follows a language switch; a throttled one keeps the server's text. */
type LoginFailure = { kind: 'wrongLogin' } | { kind: 'server'; text: string };

// Loaded on the first failed attempt: the alert and the icons of all its types would otherwise weigh on every visit.
const Alert = lazy(() => import('antd/es/alert'));

function check(name: FieldName, value: string): RuleFailure | undefined {
  if (name === 'username') return checkUsername(value) ?? undefined;
  return value ? undefined : { key: 'validation.passwordMissing' };
}

/** A labelled field laid out like antd's vertical Form.Item, whose Form module this page leaves out to stay light. */
function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    // The error line takes the place of the gap below, as in antd, so showing it does not shift the fields.
    <div style={{ marginBottom: error ? 0 : token.marginLG }}>
      <div style={{ paddingBottom: token.paddingXS }}>
        <label htmlFor={id}>{label}</label>
      </div>
      {children}
      {error && (
        <div id={`${id}-error`} role="alert" style={{ color: token.colorError, minHeight: token.controlHeightSM }}>
          {error}
        </div>
      )}
    </div>
  );
}

/** Offered only when the server has an OpenID Connect provider configured. */
function SingleSignOn({ redirect }: { redirect: string }) {
  const { t } = useTranslation('public');
  const { token } = theme.useToken();
  const [sso, setSso] = useState<{ enabled: boolean; label: string | null }>();

  useEffect(() => {
    // Without an answer the page simply offers the password form alone.
    http
      .get<{ enabled: boolean; label: string | null }>('/sso/config', undefined, { silent: true })
      .then(setSso, () => undefined);
  }, []);

  if (!sso?.enabled) return null;
  return (
    <>
      {/* Plain text rather than antd's Divider, which would weigh on every visit to /login. */}
      <div style={{ textAlign: 'center', margin: `${token.marginSM}px 0`, color: token.colorTextSecondary }}>{t('login.or')}</div>
      <Button data-testid="login-sso" block href={`/api/sso/start?redirect=${encodeURIComponent(redirect)}`}>
        {sso.label ? t('login.ssoNamed', { name: sso.label }) : t('login.sso')}
      </Button>
    </>
  );
}

export default function LoginPage() {
  const { t } = useTranslation('public');
  const [params] = useSearchParams();
  const { status } = useSession();
  const [values, setValues] = useState<LoginValues>({ username: '', password: '' });
  const [fieldFailures, setFieldFailures] = useState<FieldFailures>({});
  const [submitting, setSubmitting] = useState(false);
  // A single sign-on that could not start comes back here with its reason.
  const [failure, setFailure] = useState<LoginFailure | undefined>(() => {
    const ssoError = params.get('ssoError');
    return ssoError && isErrorKey(ssoError) ? { kind: 'server', text: t(`errors:${ssoError}`) } : undefined;
  });

  // A visitor who still holds a token goes straight on to where they were heading.
  useEffect(() => {
    if (status === 'loading') loadUser().catch(() => undefined);
  }, [status]);

  if (status === 'ready') return <Navigate to={redirectTarget(params)} replace />;

  // Each change re-checks its field, as antd's Form does by default.
  function change(name: FieldName, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    setFieldFailures((current) => ({ ...current, [name]: check(name, value) }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const found: FieldFailures = { username: check('username', values.username), password: check('password', values.password) };
    setFieldFailures(found);
    if (found.username || found.password) return;
    setSubmitting(true);
    setFailure(undefined);
    try {
      await login(values.username, values.password);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setFailure({ kind: 'wrongLogin' });
      else if (error instanceof ApiError && error.status === 429) setFailure({ kind: 'server', text: error.message });
      else reportError(error);
    } finally {
      setSubmitting(false);
    }
  }

  const errorOf = (name: FieldName) => {
    const found = fieldFailures[name];
    return found && failureText(t, found);
  };
  const usernameError = errorOf('username');
  const passwordError = errorOf('password');

  return (
    <PublicLayout title={t('login.title')}>
      <form onSubmit={submit}>
        <Field id="login-username" label={t('login.username')} error={usernameError}>
          <Input
            id="login-username"
            data-testid="login-username"
            autoComplete="username"
            autoFocus
            value={values.username}
            onChange={(event) => change('username', event.target.value)}
            disabled={submitting}
            status={usernameError ? 'error' : undefined}
            aria-invalid={usernameError ? true : undefined}
            aria-describedby={usernameError ? 'login-username-error' : undefined}
          />
        </Field>
        <Field id="login-password" label={t('login.password')} error={passwordError}>
          <Input.Password
            id="login-password"
            data-testid="login-password"
            autoComplete="current-password"
            value={values.password}
            onChange={(event) => change('password', event.target.value)}
            disabled={submitting}
            status={passwordError ? 'error' : undefined}
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={passwordError ? 'login-password-error' : undefined}
          />
        </Field>
        {failure && (
          <Suspense fallback={null}>
            <Alert
              data-testid="login-error"
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              title={failure.kind === 'wrongLogin' ? t('errors:login.loginFail') : failure.text}
            />
          </Suspense>
        )}
        <Button data-testid="login-submit" type="primary" htmlType="submit" block loading={submitting}>
          {t('login.submit')}
        </Button>
      </form>
      <SingleSignOn redirect={redirectTarget(params)} />
      <Flex justify="space-between" style={{ marginTop: 16 }}>
        <Link to="/signup" data-testid="login-to-signup">
          {t('login.toSignup')}
        </Link>
        <Link to="/forgot" data-testid="login-to-forgot">
          {t('login.toForgot')}
        </Link>
      </Flex>
    </PublicLayout>
  );
}
