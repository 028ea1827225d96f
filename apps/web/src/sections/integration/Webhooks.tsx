/**
 * The account's status webhook: where events go, which messages they cover, the signing secret (shown
 * once), a test event, and the log of every delivery with its attempts.
 */

import { SendOutlined } from '@ant-design/icons';
import { isHttpUrl } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Form, Input, Popconfirm, Radio, Segmented, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeliveryAnswer, DeliveryLogCard } from '../../ui/DeliveryLogCard';
import { useServerPaging } from '../../ui/serverPaging';
import { formatTime } from '../../utils/date';
import { useFormSubmit } from '../configs/formErrors';
import {
  DELIVERIES_KEY,
  type Delivery,
  type DeliveryState,
  deliveriesQuery,
  WEBHOOK_KEY,
  type WebhookBody,
  webhookQuery,
  webhooksApi,
} from './api';
import { SecretReveal } from './SecretReveal';

const STATE_COLORS: Record<DeliveryState, string> = { pending: 'gold', delivered: 'green', failed: 'red' };
const WEBHOOK_LOG_PAGE_SIZE = 20;

function DeliveryLog() {
  const { t } = useTranslation('integration');
  const paging = useServerPaging(WEBHOOK_LOG_PAGE_SIZE);
  const [state, setState] = useState<DeliveryState>();
  const log = useQuery(deliveriesQuery(paging.page, paging.size, state));

  const columns: ColumnsType<Delivery> = [
    { key: 'at', title: t('log.columns.at'), width: 180, render: (_, d) => formatTime(d.at) },
    {
      key: 'event',
      title: t('log.columns.event'),
      render: (_, d) =>
        d.type === 'message.status' ? (
          <Space size={4} wrap>
            <Typography.Text>{t('log.message', { id: d.messageId })}</Typography.Text>
            <Tag>{t(`statuses.${d.previousStatus}`)}</Tag>→<Tag color="blue">{t(`statuses.${d.status}`)}</Tag>
          </Space>
        ) : (
          <Typography.Text>{t('log.testEvent')}</Typography.Text>
        ),
    },
    {
      key: 'state',
      title: t('log.columns.state'),
      render: (_, d) => (
        <Tag color={STATE_COLORS[d.state]} data-testid={`delivery-state-${d.id}`}>
          {t(`log.states.${d.state}`)}
        </Tag>
      ),
    },
    { key: 'attempts', title: t('log.columns.attempts'), align: 'right', render: (_, d) => d.attempts },
    {
      key: 'answer',
      title: t('log.columns.answer'),
      render: (_, d) => <DeliveryAnswer error={d.lastError} responseStatus={d.responseCode} />,
    },
    {
      key: 'next',
      title: t('log.columns.next'),
      render: (_, d) => (d.nextAttemptAt !== null && d.attempts > 0 ? formatTime(d.nextAttemptAt) : null),
    },
  ];

  return (
    <DeliveryLogCard<Delivery>
      title={t('log.title')}
      testId="webhook-log"
      refreshLabel={t('actions.refresh')}
      filter={
        <Segmented<DeliveryState | 'all'>
          value={state ?? 'all'}
          onChange={(value) => {
            setState(value === 'all' ? undefined : value);
            paging.toFirstPage();
          }}
          options={(['all', 'pending', 'delivered', 'failed'] as const).map((value) => ({
            value,
            label: value === 'all' ? t('log.all') : t(`log.states.${value}`),
          }))}
        />
      }
      columns={columns}
      log={log}
      paging={paging}
      emptyText={t('log.empty')}
      rowTestId={(d) => `delivery-row-${d.id}`}
    />
  );
}

export default function Webhooks() {
  const { t } = useTranslation('integration');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const webhook = useQuery(webhookQuery);
  const [form] = Form.useForm<WebhookBody>();
  const [testing, setTesting] = useState(false);
  const [shownSecret, setShownSecret] = useState<string>();

  useEffect(() => {
    if (webhook.data)
      form.setFieldsValue({
        url: webhook.data.url ?? '',
        enabled: webhook.data.url === null || webhook.data.enabled,
        events: webhook.data.events,
      });
  }, [webhook.data, form]);

  const configured = Boolean(webhook.data?.url);

  const { saving, save } = useFormSubmit(form, async (values) => {
    const saved = await webhooksApi.save({ ...values, url: values.url.trim() });
    message.success(t('webhook.saved'));
    if (saved.secret) setShownSecret(saved.secret);
    await queryClient.invalidateQueries({ queryKey: WEBHOOK_KEY });
  });

  const rotate = () =>
    webhooksApi
      .rotateSecret()
      .then((answer) => setShownSecret(answer.secret))
      .catch(() => undefined);

  const sendTest = async () => {
    setTesting(true);
    try {
      const delivery = await webhooksApi.sendTest();
      if (delivery.state === 'delivered') message.success(t('webhook.testDelivered', { code: delivery.responseCode }));
      else message.error(t('webhook.testFailed', { error: delivery.lastError ?? '' }));
      await queryClient.invalidateQueries({ queryKey: DELIVERIES_KEY });
    } catch {
      // Already reported by the HTTP client.
    } finally {
      setTesting(false);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Card variant="borderless" data-testid="webhook-settings">
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('webhook.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('webhook.subtitle')}</Typography.Paragraph>
        <Form form={form} layout="vertical" style={{ maxWidth: 720 }} initialValues={{ enabled: true, events: 'api' }}>
          <Form.Item
            name="url"
            label={t('webhook.url')}
            extra={t('webhook.urlHelp')}
            rules={[
              { required: true, whitespace: true, message: t('errors:validation.mandatory') },
              {
                validator: async (_, value: string | undefined) => {
                  if (value?.trim() && !isHttpUrl(value.trim())) throw new Error(t('errors:validation.invalidUrl'));
                },
              },
            ]}
          >
            <Input data-testid="webhook-url" placeholder="https://example.com/hooks/herald" maxLength={2000} autoComplete="off" />
          </Form.Item>
          <Form.Item name="events" label={t('webhook.events')}>
            <Radio.Group>
              <Radio value="api" data-testid="webhook-events-api">
                {t('webhook.eventsApi')}
              </Radio>
              <Radio value="all" data-testid="webhook-events-all">
                {t('webhook.eventsAll')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item name="enabled" label={t('webhook.enabled')} valuePropName="checked">
            <Switch data-testid="webhook-enabled" />
          </Form.Item>
          <Space wrap>
            <Button type="primary" loading={saving} data-testid="webhook-save" onClick={save}>
              {t('actions.save')}
            </Button>
            <Button
              icon={<SendOutlined />}
              disabled={!configured}
              loading={testing}
              data-testid="webhook-test"
              onClick={sendTest}
            >
              {t('webhook.sendTest')}
            </Button>
            <Popconfirm
              title={t('webhook.rotateTitle')}
              description={t('webhook.rotateText')}
              okText={t('webhook.rotate')}
              cancelText={t('actions.cancel')}
              onConfirm={rotate}
              disabled={!configured}
            >
              <Button disabled={!configured} data-testid="webhook-rotate">
                {t('webhook.rotate')}
              </Button>
            </Popconfirm>
          </Space>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 24, marginBottom: 0 }}>
          {t('webhook.signatureHelp')}
        </Typography.Paragraph>
        <Typography.Paragraph code style={{ marginBottom: 0 }}>
          X-Herald-Signature: t=1732450000,v1=HMAC_SHA256(secret, t + "." + body)
        </Typography.Paragraph>
      </Card>
      <DeliveryLog />
      <SecretReveal
        title={t('webhook.secretTitle')}
        secret={shownSecret}
        testId="webhook-secret"
        onClose={() => setShownSecret(undefined)}
      />
    </Flex>
  );
}
