/** API keys of the account: create (the key is shown once), see when each was last used, revoke. */
import { KeyOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ButtonProps } from 'antd';
import { App, Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Radio, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { textList } from '../../ui/textList';
import { formatTime, timeAgo } from '../../utils/date';
import { useFormSubmit } from '../configs/formErrors';
import { type ApiKey, DEFAULT_RATE_LIMIT, KEYS_KEY, type KeyBody, keysApi, keysQuery, MAX_RATE_LIMIT } from './api';
import { SecretReveal } from './SecretReveal';

export default function ApiKeys() {
  const { t } = useTranslation('integration');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const keys = useQuery(keysQuery);
  const [form] = Form.useForm<KeyBody>();
  const [creating, setCreating] = useState(false);
  const [shownKey, setShownKey] = useState<string>();

  const { saving, save: create } = useFormSubmit(form, async (values) => {
    const created = await keysApi.create({ ...values, name: values.name.trim() });
    setCreating(false);
    form.resetFields();
    setShownKey(created.key);
    await queryClient.invalidateQueries({ queryKey: KEYS_KEY });
  });

  const revoke = (key: ApiKey) =>
    keysApi
      .revoke(key.id)
      .then(() => {
        message.success(t('keys.revoked', { name: key.name }));
        void queryClient.invalidateQueries({ queryKey: KEYS_KEY });
      })
      // Already reported by the HTTP client.
      .catch(() => undefined);

  const columns: ColumnsType<ApiKey> = [
    { key: 'name', title: t('keys.columns.name'), render: (_, key) => <Typography.Text strong>{key.name}</Typography.Text> },
    {
      key: 'key',
      title: t('keys.columns.key'),
      render: (_, key) => <Typography.Text code>{key.keyStart}</Typography.Text>,
    },
    {
      key: 'scope',
      title: t('keys.columns.scope'),
      render: (_, key) => <Tag color={key.scope === 'send' ? 'blue' : 'default'}>{t(`keys.scopes.${key.scope}`)}</Tag>,
    },
    { key: 'rate', title: t('keys.columns.rateLimit'), render: (_, key) => t('keys.perSecond', { n: key.rateLimit }) },
    { key: 'created', title: t('keys.columns.created'), render: (_, key) => formatTime(key.createdAt) },
    {
      key: 'used',
      title: t('keys.columns.lastUsed'),
      render: (_, key) =>
        key.lastUsedAt === null ? (
          <Typography.Text type="secondary">{t('keys.neverUsed')}</Typography.Text>
        ) : (
          <Tooltip title={formatTime(key.lastUsedAt)}>{timeAgo(key.lastUsedAt)}</Tooltip>
        ),
    },
    {
      key: 'state',
      title: t('keys.columns.state'),
      render: (_, key) =>
        key.revokedAt === null ? (
          <Tag color="green">{t('keys.active')}</Tag>
        ) : (
          <Tooltip title={formatTime(key.revokedAt)}>
            <Tag color="red">{t('keys.revokedTag')}</Tag>
          </Tooltip>
        ),
    },
    {
      key: 'actions',
      title: t('keys.columns.actions'),
      align: 'right',
      render: (_, key) =>
        key.revokedAt === null ? (
          <Popconfirm
            title={t('keys.revokeTitle', { name: key.name })}
            description={t('keys.revokeText')}
            okText={t('actions.revoke')}
            cancelText={t('actions.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => revoke(key)}
          >
            <Button type="text" danger icon={<StopOutlined />} data-testid={`key-revoke-${key.id}`}>
              {t('actions.revoke')}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} data-testid="keys-create" onClick={() => setCreating(true)}>
      {t('keys.create')}
    </Button>
  );

  const dialogs = (
    <>
      <Modal
        open={creating}
        title={t('keys.createTitle')}
        okText={t('actions.create')}
        cancelText={t('actions.cancel')}
        confirmLoading={saving}
        onOk={create}
        onCancel={() => setCreating(false)}
        okButtonProps={{ 'data-testid': 'key-create-submit' } as ButtonProps}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ scope: 'send', rateLimit: DEFAULT_RATE_LIMIT }} preserve={false}>
          <Form.Item
            name="name"
            label={t('keys.form.name')}
            extra={t('keys.form.nameHelp')}
            rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
          >
            <Input data-testid="key-name" maxLength={100} autoFocus autoComplete="off" />
          </Form.Item>
          <Form.Item name="scope" label={t('keys.form.scope')}>
            <Radio.Group>
              <Radio value="send" data-testid="key-scope-send">
                {t('keys.scopes.send')} — {t('keys.scopeHelp.send')}
              </Radio>
              <Radio value="read" data-testid="key-scope-read">
                {t('keys.scopes.read')} — {t('keys.scopeHelp.read')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item name="rateLimit" label={t('keys.form.rateLimit')} extra={t('keys.form.rateLimitHelp')}>
            <InputNumber min={1} max={MAX_RATE_LIMIT} precision={0} style={{ width: 160 }} />
          </Form.Item>
        </Form>
      </Modal>
      <SecretReveal title={t('keys.createdTitle')} secret={shownKey} testId="key-secret" onClose={() => setShownKey(undefined)} />
    </>
  );

  if (keys.isSuccess && keys.data.length === 0) {
    return (
      <>
        <EmptyState
          testId="keys-empty"
          icon={<KeyOutlined />}
          title={t('keys.empty.title')}
          description={t('keys.empty.description')}
          capabilities={textList(t, 'keys.empty.capabilities')}
          actions={createButton}
        />
        {dialogs}
      </>
    );
  }

  return (
    <Card variant="borderless" data-testid="api-keys">
      <ScreenHeader title={t('keys.title')} subtitle={t('keys.subtitle')}>
        {createButton}
      </ScreenHeader>
      <Table<ApiKey>
        rowKey="id"
        columns={columns}
        dataSource={keys.data ?? []}
        loading={keys.isPending}
        pagination={false}
        scroll={{ x: 900 }}
        onRow={(key) => ({ 'data-testid': `key-row-${key.id}` }) as object}
      />
      {dialogs}
    </Card>
  );
}
