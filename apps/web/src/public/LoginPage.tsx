/** /login: username and password; on success the user info is loaded and the redirect target opens. */
import { Alert, Button, Flex, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ApiError, reportError } from '../api/http';
import { loadUser, login } from '../session/session';
import { useSession } from '../session/useSession';
import { PublicLayout } from './PublicLayout';
import { redirectTarget } from './redirect';

interface LoginValues {
  username: string;
  password: string;
}

/** A wrong login is kept as a key so its text follows a language switch; a throttled one keeps the server's text. */
type LoginFailure = { kind: 'wrongLogin' } | { kind: 'server'; text: string };

export default function LoginPage() {
  const { t } = useTranslation('public');
  const [params] = useSearchParams();
  const { status } = useSession();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<LoginFailure>();

  // A visitor who still holds a token goes straight on to where they were heading.
  useEffect(() => {
    if (status === 'loading') loadUser().catch(() => undefined);
  }, [status]);

  if (status === 'ready') return <Navigate to={redirectTarget(params)} replace />;

  async function submit(values: LoginValues) {
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

  return (
    <PublicLayout title={t('login.title')}>
      <Form<LoginValues> layout="vertical" onFinish={submit} requiredMark={false} disabled={submitting}>
        <Form.Item
          name="username"
          label={t('login.username')}
          rules={[{ required: true, whitespace: true, message: t('errors:validation.usernameMissing') }]}
        >
          <Input data-testid="login-username" autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          rules={[{ required: true, message: t('errors:validation.passwordMissing') }]}
        >
          <Input.Password data-testid="login-password" autoComplete="current-password" />
        </Form.Item>
        {failure && (
          <Alert
            data-testid="login-error"
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            title={failure.kind === 'wrongLogin' ? t('errors:login.loginFail') : failure.text}
          />
        )}
        <Button data-testid="login-submit" type="primary" htmlType="submit" block loading={submitting}>
          {t('login.submit')}
        </Button>
      </Form>
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
