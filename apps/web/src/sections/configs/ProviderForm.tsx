/** Create or edit a provider configuration: the type's own fields from its schema, common limits and filters, a live connection test. */
import { ApiOutlined, CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Col,
  Divider,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { type ConfigBody, configsApi, type FilterItem, type ProviderConfig, type ProviderType, type SettingValue } from './api';
import { FilterEditor } from './FilterEditor';
import { type FieldPath, showSubmitError, splitFieldPath, useFormSubmit } from './formErrors';
import { CategoryIcon, typeLabel } from './labels';
import { SettingInput } from './SettingInput';

interface FormValues {
  type?: string;
  name?: string;
  active?: boolean;
  limitPerDay?: number | null;
  limitPerMonth?: number | null;
  filter?: Partial<FilterItem>[];
  settings?: Record<string, SettingValue | null | undefined>;
}

type TestResult = { ok: boolean; message: string; title: string };

function defaultsOf(type: ProviderType | undefined): Record<string, SettingValue> {
  const defaults: Record<string, SettingValue> = {};
  for (const field of type?.fields ?? []) if (field.default !== undefined && !field.secret) defaults[field.name] = field.default;
  return defaults;
}

function initialValues(config: ProviderConfig | undefined): FormValues {
  if (!config) return { active: true, filter: [], settings: {}, limitPerDay: null, limitPerMonth: null };
  return {
    type: config.type,
    name: config.name,
    active: config.active,
    limitPerDay: config.limitPerDay,
    limitPerMonth: config.limitPerMonth,
    filter: config.filter,
    settings: config.settings,
  };
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The request body from the form; blank settings are left out so the server keeps secrets and applies defaults. */
function toBody(values: FormValues, type: ProviderType | undefined, id: number | undefined): ConfigBody {
  const settings: Record<string, SettingValue> = {};
  for (const field of type?.fields ?? []) {
    const value = values.settings?.[field.name];
    if (!isBlank(value)) settings[field.name] = value as SettingValue;
  }
  return {
    ...(id === undefined ? {} : { id }),
    name: (values.name ?? '').trim(),
    type: values.type ?? '',
    active: values.active !== false,
    limitPerDay: values.limitPerDay ?? null,
    limitPerMonth: values.limitPerMonth ?? null,
    // Only SMS configs filter recipients (by their numbers' country and operator).
    filter: (type?.category === 'SMS' ? (values.filter ?? []) : [])
      .filter((item): item is FilterItem => (item.kind === 'country' || item.kind === 'operator') && !isBlank(item.value))
      .map((item) => ({ kind: item.kind, value: item.value.trim() })),
    settings,
  };
}

interface ProviderFormProps {
  open: boolean;
  types: ProviderType[];
  /** The configuration being edited; none when creating. */
  config?: ProviderConfig;
  onClose: () => void;
  onSaved: (config: ProviderConfig) => void;
}

export function ProviderForm({ open, types, config, onClose, onSaved }: ProviderFormProps) {
  const { t } = useTranslation('configs');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [testing, setTesting] = useState(false);
  const [testResult, setTestResult] = useState<TestResult>();
  const selectedType = Form.useWatch('type', form) ?? config?.type;
  const type = types.find((entry) => entry.type === selectedType);
  const editing = config !== undefined;

  const typeOptions = useMemo(
    () =>
      (['EMAIL', 'SMS'] as const).map((category) => ({
        label: (
          <span>
            <CategoryIcon category={category} /> {t(`categories.${category}`)}
          </span>
        ),
        title: t(`categories.${category}`),
        options: types
          .filter((entry) => entry.category === category)
          .map((entry) => ({ value: entry.type, label: typeLabel(t, entry.type) })),
      })),
    [t, types],
  );

  // Server failures name a setting by its own name; everything else by its path in the body.
  const toPath = (field: string): FieldPath | undefined => {
    if (type?.fields.some((entry) => entry.name === field)) return ['settings', field];
    const path = splitFieldPath(field);
    return ['name', 'type', 'active', 'limitPerDay', 'limitPerMonth', 'filter'].includes(String(path[0])) ? path : undefined;
  };

  const runTest = async () => {
    const settingPaths = (type?.fields ?? []).map((field) => ['settings', field.name]);
    try {
      await form.validateFields(['type', ...settingPaths]);
    } catch {
      return;
    }
    setTesting(true);
    setTestResult(undefined);
    try {
      const answer = await configsApi.test(toBody(form.getFieldsValue(true), type, config?.id));
      setTestResult({ ...answer, title: t(answer.ok ? 'providers.test.ok' : 'providers.test.failed') });
    } catch (error) {
      if (error instanceof ApiError && error.fields?.length) {
        showSubmitError(form, error, toPath);
        setTestResult({ ok: false, title: t('providers.test.failed'), message: t('providers.test.fixFields') });
      } else {
        setTestResult({ ok: false, title: t('providers.test.failed'), message: (error as Error).message });
      }
    } finally {
      setTesting(false);
    }
  };

  const { saving, save } = useFormSubmit(
    form,
    async () => {
      // The whole form store, as the connection test sends it, not only the mounted fields validation returns.
      const values: FormValues = form.getFieldsValue(true);
      const saved = await configsApi.save(toBody(values, type, config?.id));
      message.success(t(editing ? 'providers.form.updated' : 'providers.form.created', { name: saved.name }));
      onSaved(saved);
    },
    toPath,
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      destroyOnHidden
      size={680}
      title={editing ? t('providers.form.editTitle', { name: config.name }) : t('providers.form.createTitle')}
      footer={
        <Flex vertical gap={12}>
          {testResult && (
            <Alert
              data-testid="provider-test-result"
              data-ok={testResult.ok}
              type={testResult.ok ? 'success' : 'error'}
              showIcon
              icon={testResult.ok ? <CheckCircleFilled /> : <CloseCircleFilled />}
              title={testResult.title}
              description={<span style={{ wordBreak: 'break-word' }}>{testResult.message}</span>}
              closable={{ onClose: () => setTestResult(undefined) }}
            />
          )}
          <Flex justify="space-between" gap={8} wrap>
            <Button icon={<ApiOutlined />} data-testid="provider-test" loading={testing} disabled={!type} onClick={runTest}>
              {t('providers.test.button')}
            </Button>
            <Space>
              <Button onClick={onClose}>{t('actions.cancel')}</Button>
              <Button type="primary" data-testid="provider-save" loading={saving} onClick={save}>
                {t(editing ? 'actions.save' : 'providers.form.create')}
              </Button>
            </Space>
          </Flex>
        </Flex>
      }
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        data-testid="provider-form"
        initialValues={initialValues(config)}
        scrollToFirstError={{ block: 'center' }}
        onValuesChange={(changed: FormValues) => {
          if ('type' in changed) form.setFieldValue('settings', defaultsOf(types.find((entry) => entry.type === changed.type)));
          setTestResult(undefined);
        }}
      >
        <Form.Item
          name="type"
          label={t('providers.form.type')}
          rules={[{ required: true, message: t('providers.form.typeMissing') }]}
          extra={type ? t(`types.${type.type}.hint`, { defaultValue: '' }) || undefined : undefined}
        >
          <Select
            data-testid="provider-type-select"
            placeholder={t('providers.form.typePlaceholder')}
            disabled={editing}
            options={typeOptions}
            optionRender={(option) => (
              <Flex vertical>
                <span>{option.label}</span>
                {typeof option.value === 'string' && (
                  <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'normal' }}>
                    {t(`types.${option.value}.hint`, { defaultValue: '' })}
                  </Typography.Text>
                )}
              </Flex>
            )}
          />
        </Form.Item>
        {type && (
          <>
            <Row gutter={16}>
              <Col xs={24} md={16}>
                <Form.Item
                  name="name"
                  label={t('providers.form.name')}
                  rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
                >
                  <Input data-testid="provider-name" maxLength={120} placeholder={typeLabel(t, type.type)} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="active" label={t('providers.form.active')} valuePropName="checked">
                  <Switch
                    data-testid="provider-active"
                    checkedChildren={t('state.active')}
                    unCheckedChildren={t('state.inactive')}
                  />
                </Form.Item>
              </Col>
            </Row>

            <Divider titlePlacement="start" style={{ marginTop: 0 }}>
              {t('providers.form.connection')}
            </Divider>
            <Row gutter={16}>
              {type.fields.map((field) => (
                <SettingInput key={field.name} field={field} secretSet={config?.secrets[field.name]?.set === true} />
              ))}
            </Row>

            <Divider titlePlacement="start">{t('providers.form.routing')}</Divider>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="limitPerDay" label={t('providers.form.limitPerDay')} tooltip={t('providers.form.limitHelp')}>
                  <InputNumber
                    data-testid="provider-limit-day"
                    min={0}
                    precision={0}
                    style={{ width: '100%' }}
                    placeholder={t('providers.limits.none')}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="limitPerMonth" label={t('providers.form.limitPerMonth')} tooltip={t('providers.form.limitHelp')}>
                  <InputNumber
                    data-testid="provider-limit-month"
                    min={0}
                    precision={0}
                    style={{ width: '100%' }}
                    placeholder={t('providers.limits.none')}
                  />
                </Form.Item>
              </Col>
            </Row>
            {type?.category === 'SMS' && <FilterEditor />}
          </>
        )}
      </Form>
    </Drawer>
  );
}
