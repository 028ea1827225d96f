/** Sends the stored template now, to one address or phone, through one provider config of its channel. */
import { CheckCircleFilled, CloseCircleFilled, SendOutlined } from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, Flex, Form, Input, Select, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { showSubmitError } from '../configs/formErrors';
import { type RenderData, sendingConfigsQuery, type TestSendResult, templatesApi } from './api';

interface FormValues {
  providerConfigId?: number;
  to?: string;
}

interface TestSendDrawerProps {
  open: boolean;
  name: string;
  channel: ChannelCategory;
  data: RenderData;
  onClose: () => void;
}

export function TestSendDrawer({ open, name, channel, data, onClose }: TestSendDrawerProps) {
  const { t } = useTranslation('templates');
  const [form] = Form.useForm<FormValues>();
  const configs = useQuery({ ...sendingConfigsQuery(channel), enabled: open });
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestSendResult>();
  const firstActive = configs.data?.find((config) => config.active)?.id;

  // The first active config is picked once the list arrives, unless the user already chose one.
  useEffect(() => {
    if (open && firstActive !== undefined && form.getFieldValue('providerConfigId') === undefined)
      form.setFieldValue('providerConfigId', firstActive);
  }, [open, firstActive, form]);

  const send = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSending(true);
    setResult(undefined);
    try {
      setResult(
        await templatesApi.testSend(name, {
          providerConfigId: values.providerConfigId ?? 0,
          to: (values.to ?? '').trim(),
          ...data,
        }),
      );
    } catch (error) {
      const fields = error instanceof ApiError ? (error.fields ?? []) : [];
      if (fields.length > 0 && fields.every((field) => field.field === 'providerConfigId' || field.field === 'to')) {
        showSubmitError(form, error);
      } else {
        // A render failure names a template part, which this form has no field for.
        const text = fields.map((field) => field.message).join(' ') || (error as Error).message;
        setResult({ accepted: false, providerMessageId: null, error: text });
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      destroyOnHidden
      size={480}
      title={
        <Flex gap={8} align="center">
          <SendOutlined />
          {t('testSend.title', { name })}
        </Flex>
      }
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('actions.close')}</Button>
          <Button type="primary" icon={<SendOutlined />} loading={sending} data-testid="test-send-submit" onClick={send}>
            {t('testSend.send')}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        <Typography.Text type="secondary">{t('testSend.description')}</Typography.Text>
        <Form<FormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          data-testid="test-send-form"
          onValuesChange={() => setResult(undefined)}
        >
          <Form.Item
            name="providerConfigId"
            label={t('testSend.config')}
            rules={[{ required: true, message: t('errors:validation.mandatory') }]}
          >
            <Select
              data-testid="test-send-config"
              loading={configs.isPending}
              placeholder={t('testSend.configPlaceholder')}
              notFoundContent={t(`testSend.noConfigs.${channel}`)}
              options={(configs.data ?? []).map((config) => ({
                value: config.id,
                label: (
                  <Flex justify="space-between" gap={8}>
                    <span>{config.name}</span>
                    {!config.active && <Tag style={{ marginInlineEnd: 0 }}>{t('testSend.inactive')}</Tag>}
                  </Flex>
                ),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="to"
            label={t(`testSend.to.${channel}`)}
            rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
          >
            <Input
              data-testid="test-send-to"
              maxLength={254}
              placeholder={t(`testSend.toPlaceholder.${channel}`)}
              onPressEnter={send}
              autoComplete="off"
            />
          </Form.Item>
        </Form>
        {result && (
          <Alert
            data-testid="test-send-result"
            data-accepted={result.accepted}
            type={result.accepted ? 'success' : 'error'}
            showIcon
            icon={result.accepted ? <CheckCircleFilled /> : <CloseCircleFilled />}
            title={t(result.accepted ? 'testSend.accepted' : 'testSend.rejected')}
            description={
              result.accepted ? (
                <Flex vertical gap={4}>
                  <span>
                    {t('testSend.providerMessageId')}{' '}
                    <Typography.Text code copyable data-testid="test-send-message-id">
                      {result.providerMessageId}
                    </Typography.Text>
                  </span>
                  <Typography.Text type="secondary">{t('testSend.sandboxHint')}</Typography.Text>
                </Flex>
              ) : (
                <span style={{ wordBreak: 'break-word' }}>{result.error}</span>
              )
            }
          />
        )}
      </Flex>
    </Drawer>
  );
}
