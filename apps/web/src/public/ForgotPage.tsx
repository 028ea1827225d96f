/** /forgot: asks the server to mail a reset link; the answer is the same whether or not the address has an account. */
import { Button, Form, Input, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../api/http';
import { PublicLayout } from './PublicLayout';
import { emailRule } from './rules';

interface ForgotValues {
  email: string;
}

export default function ForgotPage() {
  const { t } = useTranslation('public');
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);

  async function submit(values: ForgotValues) {
    setSubmitting(true);
    try {
      await http.get('/data/users/restore-password', { email: values.email.trim() });
      setSent(true);
    } catch {
      // The HTTP client has already shown the failure.
    } finally {
      setSubmitting(false);
    }
  }

  if (sent) {
    return (
      <PublicLayout>
        <Result
          data-testid="forgot-sent"
          status="info"
          title={t('errors:reset.sent')}
          extra={<Link to="/login">{t('forgot.toLogin')}</Link>}
        />
      </PublicLayout>
    );
  }

  return (
    <PublicLayout title={t('forgot.title')}>
      <p>{t('forgot.intro')}</p>
      <Form<ForgotValues> layout="vertical" onFinish={submit} requiredMark={false} disabled={submitting}>
        <Form.Item name="email" label={t('forgot.email')} rules={[emailRule(t)]}>
          <Input data-testid="forgot-email" type="email" autoComplete="email" autoFocus />
        </Form.Item>
        <Button data-testid="forgot-submit" type="primary" htmlType="submit" block loading={submitting}>
          {t('forgot.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to="/login" data-testid="forgot-to-login">
          {t('forgot.toLogin')}
        </Link>
      </div>
    </PublicLayout>
  );
}
