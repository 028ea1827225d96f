/**
 * Settings > Account: name, avatar, time zone and language; password change; usage profile and API keys;
 * the SMTP bounce address; deleting the account with everything in it.
 */
import { ApiOutlined, DeleteOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { AVATARS, isEmail, LANGUAGES, type Language, type Profile } from '@herald/shared';
import { TIME_ZONES } from '@herald/shared/reference';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Card, Flex, Form, Input, Modal, Radio, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { changeLanguage, currentLanguage } from '../../i18n';
import { confirmRule, passwordRule } from '../../public/rules';
import { forcedSignOut, loadUser, switchProfile } from '../../session/session';
import { useSession } from '../../session/useSession';
import { showSubmitError } from '../configs/formErrors';
import { BOUNCE_KEY, bounceAddressQuery, settingsApi } from './api';

const LANGUAGE_NAMES: Record<Language, string> = { ru: 'Русский', en: 'English', uk: 'Українська' };

interface ProfileValues {
  name: string;
  avatar: string;
  timeZone: string;
  language: Language;
}

function ProfileCard() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const { user } = useSession();
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const language = currentLanguage();
  const zoneOptions = useMemo(() => TIME_ZONES.map((zone) => ({ value: zone.id, label: zone[language] || zone.en })), [language]);

  useEffect(() => {
    if (!user) return;
    form.setFieldsValue({
      name: user.name === user.username ? '' : user.name,
      avatar: user.avatar,
      timeZone: user.timeZone.id,
      language: user.language ?? currentLanguage(),
    });
  }, [user, form]);

  async function save(values: ProfileValues) {
    if (!user) return;
    setSaving(true);
    try {
      const name = values.name.trim();
      if (name !== (user.name === user.username ? '' : user.name)) await settingsApi.changeName(name);
      if (values.avatar !== user.avatar) await settingsApi.changeAvatar(values.avatar);
      if (values.timeZone !== user.timeZone.id) {
        const zone = TIME_ZONES.find((entry) => entry.id === values.timeZone);
        await settingsApi.changeTimeZone(values.timeZone, zone?.offset ?? 0);
      }
      if (values.language !== currentLanguage()) await changeLanguage(values.language);
      if (values.language !== user.language) await settingsApi.changeLanguage(values.language);
      await loadUser();
      message.success(t('account.saved', { lng: values.language }));
    } catch (error) {
      showSubmitError(form, error, (field) => [field === 'id' ? 'timeZone' : field]);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card variant="borderless" title={t('account.profile.title')} data-testid="account-profile">
      <Form<ProfileValues> form={form} layout="vertical" style={{ maxWidth: 560 }} onFinish={(values) => void save(values)}>
        <Form.Item label={t('account.profile.email')}>
          <Typography.Text strong data-testid="account-email">
            {user?.username}
          </Typography.Text>
        </Form.Item>
        <Form.Item name="name" label={t('account.profile.name')} extra={t('account.profile.nameHelp')}>
          <Input data-testid="account-name" maxLength={80} placeholder={user?.username} />
        </Form.Item>
        <Form.Item name="avatar" label={t('account.profile.avatar')}>
          <Radio.Group>
            {AVATARS.map((avatar) => (
              <Radio.Button
                key={avatar}
                value={avatar}
                style={{ height: 48, padding: 4 }}
                data-testid={`account-avatar-${avatar}`}
              >
                <Avatar size={38} src={`/avatars/${avatar}`} icon={<UserOutlined />} alt={avatar} />
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item name="timeZone" label={t('account.profile.timeZone')} extra={t('account.profile.timeZoneHelp')}>
          <Select data-testid="account-timezone" showSearch={{ optionFilterProp: 'label' }} options={zoneOptions} />
        </Form.Item>
        <Form.Item name="language" label={t('account.profile.language')}>
          <Select
            data-testid="account-language"
            options={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
            style={{ width: 200 }}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="account-profile-save">
          {t('account.save')}
        </Button>
      </Form>
    </Card>
  );
}

interface PasswordValues {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

function PasswordCard() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);

  async function save(values: PasswordValues) {
    setSaving(true);
    try {
      await settingsApi.changePassword({
        oldPassword: values.oldPassword,
        newPassword: values.password,
        confirmPassword: values.confirmPassword,
      });
      form.resetFields();
      message.success(t('account.password.changed'));
    } catch (error) {
      showSubmitError(form, error, (field) => [field === 'newPassword' ? 'password' : field]);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card variant="borderless" title={t('account.password.title')} data-testid="account-password">
      <Form<PasswordValues> form={form} layout="vertical" style={{ maxWidth: 400 }} onFinish={(values) => void save(values)}>
        <Form.Item
          name="oldPassword"
          label={t('account.password.current')}
          rules={[{ required: true, message: t('errors:validation.passwordMissing') }]}
        >
          <Input.Password data-testid="account-old-password" autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('account.password.new')}
          extra={t('account.password.rules')}
          rules={[passwordRule(t)]}
        >
          <Input.Password data-testid="account-new-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('account.password.confirm')}
          dependencies={['password']}
          rules={[confirmRule(t)]}
        >
          <Input.Password data-testid="account-confirm-password" autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="account-password-save">
          {t('account.password.submit')}
        </Button>
      </Form>
    </Card>
  );
}

function UsageProfileCard() {
  const { t } = useTranslation('settings');
  const { user, roles } = useSession();
  const [switching, setSwitching] = useState(false);
  const profile: Profile = user?.profile ?? 'site';
  const other: Profile = profile === 'api' ? 'site' : 'api';
  const seesKeys = roles.includes('api') || roles.includes('admin');

  async function swap() {
    setSwitching(true);
    // A failure is reported by the HTTP client; the user stays on this profile.
    await switchProfile(other).catch(() => undefined);
    setSwitching(false);
  }

  return (
    <Card variant="borderless" title={t('account.usage.title')} data-testid="account-usage">
      <Flex vertical gap={12}>
        <Typography.Text>
          {t('account.usage.current')}{' '}
          <Tag color="blue" data-testid="account-current-profile">
            {t(`account.usage.profiles.${profile}`)}
          </Tag>
        </Typography.Text>
        <Typography.Text type="secondary">{t(`account.usage.about.${profile}`)}</Typography.Text>
        <Space wrap>
          <Button icon={<SwapOutlined />} loading={switching} onClick={() => void swap()} data-testid="account-switch-profile">
            {t(`account.usage.switchTo.${other}`)}
          </Button>
          {seesKeys ? (
            <Link to="/integration/keys" data-testid="account-api-keys">
              <ApiOutlined /> {t('account.usage.apiKeys')}
            </Link>
          ) : (
            <Typography.Text type="secondary">{t('account.usage.apiKeysNeedApi')}</Typography.Text>
          )}
        </Space>
      </Flex>
    </Card>
  );
}

function BounceAddressCard() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const bounce = useQuery(bounceAddressQuery);
  const [form] = Form.useForm<{ address: string }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (bounce.data) form.setFieldsValue({ address: bounce.data.address ?? '' });
  }, [bounce.data, form]);

  async function save({ address }: { address: string }) {
    setSaving(true);
    try {
      const saved = await settingsApi.saveBounceAddress(address.trim() || null);
      queryClient.setQueryData(BOUNCE_KEY, saved);
      message.success(t('account.bounce.saved'));
    } catch (error) {
      showSubmitError(form, error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card variant="borderless" title={t('account.bounce.title')} loading={bounce.isPending} data-testid="account-bounce">
      <Typography.Paragraph type="secondary">{t('account.bounce.description')}</Typography.Paragraph>
      <Form form={form} layout="inline" onFinish={(values) => void save(values)}>
        <Form.Item
          name="address"
          style={{ minWidth: 320 }}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                if (value?.trim() && !isEmail(value.trim())) throw new Error(t('errors:validation.invalidEmail'));
              },
            },
          ]}
        >
          <Input data-testid="account-bounce-address" placeholder="bounces@example.com" />
        </Form.Item>
        <Button htmlType="submit" loading={saving} data-testid="account-bounce-save">
          {t('account.save')}
        </Button>
      </Form>
    </Card>
  );
}

function DeleteAccountCard() {
  const { t } = useTranslation('settings');
  const { user } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [form] = Form.useForm<{ confirmation: string }>();

  async function remove({ confirmation }: { confirmation: string }) {
    setDeleting(true);
    try {
      await settingsApi.deleteAccount(confirmation);
      setOpen(false);
      forcedSignOut();
      navigate('/login', { replace: true });
    } catch (error) {
      showSubmitError(form, error);
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Card
      variant="borderless"
      title={<Typography.Text type="danger">{t('account.delete.title')}</Typography.Text>}
      data-testid="account-delete"
    >
      <Typography.Paragraph type="secondary">{t('account.delete.description')}</Typography.Paragraph>
      <Button danger icon={<DeleteOutlined />} onClick={() => setOpen(true)} data-testid="account-delete-open">
        {t('account.delete.button')}
      </Button>
      <Modal
        open={open}
        title={t('account.delete.confirmTitle')}
        okText={t('account.delete.confirmButton')}
        okButtonProps={{ danger: true, loading: deleting, ...{ 'data-testid': 'account-delete-confirm' } }}
        cancelText={t('account.delete.cancel')}
        onOk={() => form.submit()}
        onCancel={() => {
          setOpen(false);
          form.resetFields();
        }}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('account.delete.warning')}</Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={(values) => void remove(values)}>
          <Form.Item
            name="confirmation"
            label={t('account.delete.typeEmail', { email: user?.username ?? '' })}
            rules={[{ required: true, message: t('errors:account.deleteConfirmation') }]}
          >
            <Input data-testid="account-delete-confirmation" autoComplete="off" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

export default function Account() {
  return (
    <Flex vertical gap={16} data-testid="account">
      <ProfileCard />
      <PasswordCard />
      <UsageProfileCard />
      <BounceAddressCard />
      <DeleteAccountCard />
    </Flex>
  );
}
