/** /reset?token=: sets a new password with the mailed token, then points to /login. */
import { Button, Form, Input, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, http, reportError } from '../api/http';
import { PublicLayout } from './PublicLayout';
import { confirmRule, passwordRule } from './rules';

interface ResetValues {
  password: string;
  confirm: string;
}

const SERVER_FIELDS: Record<string, keyof ResetValues> = { password: 'password', confirmPassword: 'confirm' };

export default function ResetPage() {
  const { t } = useTranslation('public');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const [form] = Form.useForm<ResetValues>();
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<'done' | 'invalidToken'>();

  async function submit(values: ResetValues) {
    setSubmitting(true);
    try {
      await http.post(
        '/data/users/reset-password',
        { token, password: values.password, confirmPassword: values.confirm },
        { silent: true },
      );
      setOutcome('done');
    } catch (error) {
      const fields = error instanceof ApiError ? (error.fields ?? []) : [];
      if (fields.some((field) => field.field === 'token')) {
        setOutcome('invalidToken');
        return;
      }
      const fieldErrors = fields.flatMap((field) => {
        const name = SERVER_FIELDS[field.field];
        return name ? [{ name, errors: [field.message] }] : [];
      });
      if (fieldErrors.length > 0) form.setFields(fieldErrors);
      else reportError(error);
    } finally {
      setSubmitting(false);
    }
  }

  if (outcome === 'done') {
    return (
      <PublicLayout>
        <Result
          data-testid="reset-done"
          status="success"
          title={t('reset.done')}
          extra={
            <Button type="primary" data-testid="reset-to-login" onClick={() => navigate('/login')}>
              {t('reset.toLogin')}
            </Button>
          }
        />
      </PublicLayout>
    );
  }

  if (!token || outcome === 'invalidToken') {
    return (
      <PublicLayout>
        <Result
          data-testid="reset-invalid"
          status="error"
          title={t('errors:reset.invalidToken')}
          extra={<Link to="/forgot">{t('reset.requestNew')}</Link>}
        />
      </PublicLayout>
    );
  }

  return (
    <PublicLayout title={t('reset.title')}>
      <Form<ResetValues> form={form} layout="vertical" onFinish={submit} requiredMark={false} disabled={submitting}>
        <Form.Item name="password" label={t('reset.password')} rules={[passwordRule(t)]} extra={t('signup.passwordHint')}>
          <Input.Password data-testid="reset-password" autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item name="confirm" label={t('reset.confirm')} dependencies={['password']} rules={[confirmRule(t)]}>
          <Input.Password data-testid="reset-confirm" autoComplete="new-password" />
        </Form.Item>
        <Button data-testid="reset-submit" type="primary" htmlType="submit" block loading={submitting}>
          {t('reset.submit')}
        </Button>
      </Form>
    </PublicLayout>
  );
}
