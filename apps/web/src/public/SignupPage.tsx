/** /signup: email, password twice, usage profile and time zone; the new account is signed in right away. */
import type { Profile } from '@herald/shared';
import { TIME_ZONES } from '@herald/shared/reference';
import { Button, Form, Input, Radio, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ApiError, reportError } from '../api/http';
import { currentLanguage } from '../i18n';
import { signup } from '../session/session';
import { useSession } from '../session/useSession';
import { PublicLayout } from './PublicLayout';
import { redirectTarget } from './redirect';
import { confirmRule, emailRule, passwordRule } from './rules';
import { guessTimeZone } from './timeZone';

interface SignupValues {
  email: string;
  password: string;
  confirm: string;
  role: Profile;
  timeZone: string;
}

/** Server field names mapped onto this form's fields. */
const SERVER_FIELDS: Record<string, keyof SignupValues> = {
  email: 'email',
  password: 'password',
  confirmPassword: 'confirm',
  role: 'role',
  timeZone: 'timeZone',
  'timeZone.id': 'timeZone',
};

export default function SignupPage() {
  const { t } = useTranslation('public');
  const [params] = useSearchParams();
  const { status } = useSession();
  const [form] = Form.useForm<SignupValues>();
  const [submitting, setSubmitting] = useState(false);
  const language = currentLanguage();
  const zoneOptions = useMemo(() => TIME_ZONES.map((zone) => ({ value: zone.id, label: zone[language] })), [language]);
  const [initialValues] = useState(() => ({ timeZone: guessTimeZone()?.id }));

  if (status === 'ready') return <Navigate to={redirectTarget(params)} replace />;

  async function submit(values: SignupValues) {
    const zone = TIME_ZONES.find((entry) => entry.id === values.timeZone);
    if (!zone) return;
    setSubmitting(true);
    try {
      await signup({
        email: values.email,
        password: values.password,
        role: values.role,
        timeZone: { id: zone.id, offset: zone.offset },
      });
    } catch (error) {
      const fieldErrors = (error instanceof ApiError ? (error.fields ?? []) : []).flatMap((field) => {
        const name = SERVER_FIELDS[field.field];
        return name ? [{ name, errors: [field.message] }] : [];
      });
      if (fieldErrors.length > 0) form.setFields(fieldErrors);
      else reportError(error);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <PublicLayout title={t('signup.title')}>
      <Form<SignupValues>
        form={form}
        layout="vertical"
        onFinish={submit}
        requiredMark={false}
        disabled={submitting}
        initialValues={initialValues}
      >
        <Form.Item name="email" label={t('signup.email')} rules={[emailRule(t)]} normalize={(value: string) => value.trimStart()}>
          <Input data-testid="signup-email" type="email" autoComplete="email" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('signup.password')} rules={[passwordRule(t)]} extra={t('signup.passwordHint')}>
          <Input.Password data-testid="signup-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" label={t('signup.confirm')} dependencies={['password']} rules={[confirmRule(t)]}>
          <Input.Password data-testid="signup-confirm" autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="role" label={t('signup.role')} rules={[{ required: true, message: t('errors:validation.roleMissing') }]}>
          <Radio.Group data-testid="signup-role">
            <Radio value="site" data-testid="signup-role-site">
              {t('signup.roleSite')}
            </Radio>
            <Radio value="api" data-testid="signup-role-api">
              {t('signup.roleApi')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="timeZone"
          label={t('signup.timeZone')}
          rules={[{ required: true, message: t('errors:validation.mandatory') }]}
        >
          <Select data-testid="signup-timezone" showSearch={{ optionFilterProp: 'label' }} options={zoneOptions} />
        </Form.Item>
        <Button data-testid="signup-submit" type="primary" htmlType="submit" block loading={submitting}>
          {t('signup.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to="/login" data-testid="signup-to-login">
          {t('signup.toLogin')}
        </Link>
      </div>
    </PublicLayout>
  );
}
