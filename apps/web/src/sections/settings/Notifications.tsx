/**
 * Settings > Notifications: the Slack incoming webhook and its sender name, which events to announce,
 * a test post, and the log of every delivery (queued posts are retried in the background).
 */
import { DeleteOutlined, SendOutlined } from '@ant-design/icons';
import { checkSenderName, checkSlackUrl, NOTIFY_EVENTS, type NotifyEvent, SLACK_SENDER_DEFAULT } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Flex, Form, Input, InputNumber, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '../../public/rules';
import { DeliveryAnswer, DeliveryLogCard } from '../../ui/DeliveryLogCard';
import { useServerPaging } from '../../ui/serverPaging';
import { formatTime } from '../../utils/date';
import { showSubmitError } from '../configs/formErrors';
import {
  type DeliveryStatus,
  HOOK_DELIVERIES_KEY,
  HOOKS_KEY,
  type HookDelivery,
  hookDeliveriesQuery,
  hookSettingsQuery,
  settingsApi,
} from './api';

interface FormValues {
  slackUrl: string;
  senderName: string;
  events: NotifyEvent[];
  balanceThreshold: number | null;
}

const STATUS_COLORS: Record<DeliveryStatus, string> = { pending: 'gold', sent: 'green', failed: 'red' };

function DeliveryLog() {
  const { t } = useTranslation('settings');
  const paging = useServerPaging();
  const log = useQuery(hookDeliveriesQuery(paging.page, paging.size));

  const columns: ColumnsType<HookDelivery> = [
    { key: 'at', title: t('notifications.log.at'), width: 170, render: (_, d) => formatTime(d.createdAt) },
    {
      key: 'event',
      title: t('notifications.log.event'),
      width: 200,
      render: (_, d) => (d.event === 'test' ? t('notifications.log.test') : t(`notifications.events.${d.event}`)),
    },
    { key: 'text', title: t('notifications.log.text'), render: (_, d) => <Typography.Text>{d.text}</Typography.Text> },
    {
      key: 'status',
      title: t('notifications.log.status'),
      width: 120,
      render: (_, d) => (
        <Tag color={STATUS_COLORS[d.status]} data-testid={`hook-delivery-status-${d.id}`}>
          {t(`notifications.log.statuses.${d.status}`)}
        </Tag>
      ),
    },
    { key: 'attempts', title: t('notifications.log.attempts'), width: 90, align: 'right', render: (_, d) => d.attempts },
    {
      key: 'answer',
      title: t('notifications.log.answer'),
      render: (_, d) => (
        <Space orientation="vertical" size={0}>
          <DeliveryAnswer error={d.error} responseStatus={d.responseStatus} />
          {d.status === 'pending' && d.nextAttemptAt && (
            <Typography.Text type="secondary">{t('notifications.log.next', { at: formatTime(d.nextAttemptAt) })}</Typography.Text>
          )}
        </Space>
      ),
    },
  ];

  return (
    <DeliveryLogCard<HookDelivery>
      title={t('notifications.log.title')}
      testId="hook-log"
      refreshLabel={t('notifications.log.refresh')}
      columns={columns}
      log={log}
      paging={paging}
      emptyText={t('notifications.log.empty')}
      rowTestId={(d) => `hook-delivery-${d.id}`}
      tableSize="middle"
    />
  );
}

export default function Notifications() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery(hookSettingsQuery);
  const [form] = Form.useForm<FormValues>();
  const events = Form.useWatch('events', form) ?? [];
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);

  useEffect(() => {
    if (!settings.data) return;
    form.setFieldsValue({
      slackUrl: '',
      senderName: settings.data.senderName,
      events: settings.data.events,
      balanceThreshold: settings.data.balanceThreshold,
    });
  }, [settings.data, form]);

  async function save(values: FormValues, removeUrl = false) {
    setSaving(true);
    try {
      const typed = values.slackUrl.trim();
      const saved = await settingsApi.saveHooks({
        ...(removeUrl ? { slackUrl: null } : typed ? { slackUrl: typed } : {}),
        senderName: values.senderName,
        events: values.events,
        balanceThreshold: values.events.includes('balance.low') ? values.balanceThreshold : null,
      });
      queryClient.setQueryData(HOOKS_KEY, saved);
      form.setFieldValue('slackUrl', '');
      message.success(t(removeUrl ? 'notifications.removed' : 'notifications.saved'));
    } catch (error) {
      showSubmitError(form, error);
    } finally {
      setSaving(false);
    }
  }

  async function sendTest() {
    const typed = (form.getFieldValue('slackUrl') as string | undefined)?.trim() ?? '';
    try {
      await form.validateFields(['slackUrl', 'senderName']);
    } catch {
      return;
    }
    if (!typed && !settings.data?.configured) {
      form.setFields([{ name: 'slackUrl', errors: [t('errors:hooks.notConfigured')] }]);
      return;
    }
    setTesting(true);
    try {
      const outcome = await settingsApi.testHook({
        ...(typed ? { slackUrl: typed } : {}),
        senderName: form.getFieldValue('senderName') as string,
      });
      if (outcome.ok) message.success(t('notifications.testOk'));
      else
        message.error(
          t('notifications.testFailed', { reason: outcome.error ?? (outcome.status ? `HTTP ${outcome.status}` : '') }),
        );
      await queryClient.invalidateQueries({ queryKey: HOOK_DELIVERIES_KEY });
    } catch (error) {
      showSubmitError(form, error);
    } finally {
      setTesting(false);
    }
  }

  return (
    <Flex vertical gap={16} data-testid="notifications">
      <Card variant="borderless" title={t('notifications.title')} loading={settings.isPending}>
        <Typography.Paragraph type="secondary">{t('notifications.description')}</Typography.Paragraph>
        <Form<FormValues>
          form={form}
          layout="vertical"
          style={{ maxWidth: 720 }}
          initialValues={{ slackUrl: '', senderName: SLACK_SENDER_DEFAULT, events: [], balanceThreshold: null }}
          onFinish={(values) => void save(values)}
        >
          <Form.Item label={t('notifications.slackUrl')} extra={t('notifications.slackUrlHelp')} required={false}>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item
                name="slackUrl"
                noStyle
                validateTrigger="onBlur"
                rules={[
                  {
                    validator: async (_, value: string | undefined) => {
                      const failure = checkSlackUrl(value);
                      if (failure) throw new Error(failureText(t, failure));
                    },
                  },
                ]}
              >
                <Input
                  data-testid="hook-slack-url"
                  placeholder={settings.data?.slackUrl ?? 'https://hooks.slack.com/services/…'}
                  autoComplete="off"
                />
              </Form.Item>
              {settings.data?.configured && (
                <Tooltip title={t('notifications.removeUrl')}>
                  <Button
                    data-testid="hook-remove-url"
                    icon={<DeleteOutlined />}
                    aria-label={t('notifications.removeUrl')}
                    onClick={() => void save(form.getFieldsValue(), true)}
                  />
                </Tooltip>
              )}
            </Space.Compact>
          </Form.Item>
          <Form.Item
            name="senderName"
            label={t('notifications.senderName')}
            rules={[
              {
                validator: async (_, value: string | undefined) => {
                  const failure = checkSenderName(value);
                  if (failure) throw new Error(failureText(t, failure));
                },
              },
            ]}
          >
            <Input data-testid="hook-sender-name" maxLength={80} />
          </Form.Item>
          <Form.Item name="events" label={t('notifications.eventsLabel')}>
            <Checkbox.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
              {NOTIFY_EVENTS.map((event) => (
                <Checkbox key={event} value={event} data-testid={`hook-event-${event}`}>
                  {t(`notifications.events.${event}`)}
                </Checkbox>
              ))}
            </Checkbox.Group>
          </Form.Item>
          {events.includes('balance.low') && (
            <Form.Item
              name="balanceThreshold"
              label={t('notifications.balanceThreshold')}
              extra={t('notifications.balanceThresholdHelp')}
              rules={[{ required: true, message: t('errors:validation.mandatory') }]}
            >
              <InputNumber data-testid="hook-balance-threshold" min={0} step={1} style={{ width: 200 }} />
            </Form.Item>
          )}
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="hook-save">
              {t('notifications.save')}
            </Button>
            <Button icon={<SendOutlined />} loading={testing} onClick={() => void sendTest()} data-testid="hook-test">
              {t('notifications.test')}
            </Button>
          </Space>
        </Form>
      </Card>
      <DeliveryLog />
    </Flex>
  );
}
