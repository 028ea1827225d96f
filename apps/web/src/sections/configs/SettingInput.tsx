/** One field of a provider type, rendered from the schema the server sends with the types. */
import { Col, Form, Input, InputNumber, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProviderField } from './api';
import { optionLabel } from './labels';

const URL_PATTERN = /^https?:\/\/\S+$/i;
const WIDE_KINDS = new Set(['textarea', 'json', 'url']);
// Passed as a value because the console's `{name}` interpolation would eat the braces if they sat in the text.
const BODY_PLACEHOLDERS = '{{to}}, {{text}}, {{sender}}, {{clientId}}, {{id}}';
const MONOSPACE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 };

interface SettingInputProps {
  field: ProviderField;
  /** A stored secret exists, so a blank input keeps it. */
  secretSet: boolean;
}

export function SettingInput({ field, secretSet }: SettingInputProps) {
  const { t, i18n } = useTranslation('configs');
  const testId = `provider-field-${field.name}`;
  const keepsSecret = field.secret && secretSet;
  // A blank field with a default gets the default on the server, so only default-less ones are mandatory here.
  const mandatory = field.required === true && field.default === undefined && !keepsSecret;
  const rules: Rule[] = [];
  if (mandatory) rules.push({ required: true, message: t('errors:validation.mandatory') });
  if (field.kind === 'email') rules.push({ type: 'email', message: t('errors:validation.invalidEmail') });
  if (field.kind === 'url') rules.push({ pattern: URL_PATTERN, message: t('errors:validation.invalidUrl') });
  // Refused with the range named, where the input's own min and max would quietly change 99999 into 65535.
  if (field.kind === 'number' && (field.min !== undefined || field.max !== undefined)) {
    rules.push({
      type: 'number',
      min: field.min,
      max: field.max,
      message: t('errors:validation.outOfRange', { min: field.min ?? '−∞', max: field.max ?? '∞' }),
    });
  }
  if (field.kind === 'json') {
    rules.push({
      validator: async (_, value: unknown) => {
        if (typeof value !== 'string' || value.trim() === '') return;
        try {
          JSON.parse(value);
        } catch {
          throw new Error(t('providers.form.invalidJson'));
        }
      },
    });
  }

  const helpKey = `providers.help.${field.name}`;
  const placeholder = keepsSecret ? t('providers.form.secretPlaceholder') : undefined;

  let control: ReactNode;
  let valuePropName: string | undefined;
  switch (field.kind) {
    case 'number':
      control = <InputNumber data-testid={testId} style={{ width: '100%' }} placeholder={placeholder} />;
      break;
    case 'boolean':
      valuePropName = 'checked';
      control = <Switch data-testid={testId} />;
      break;
    case 'select':
      control = (
        <Select
          data-testid={testId}
          allowClear={!field.required}
          options={(field.options ?? []).map((option) => ({ value: option, label: optionLabel(t, field.name, option) }))}
        />
      );
      break;
    case 'textarea':
    case 'json':
      control = (
        <Input.TextArea
          data-testid={testId}
          autoSize={{ minRows: 3, maxRows: 10 }}
          placeholder={placeholder}
          spellCheck={false}
          style={MONOSPACE}
        />
      );
      break;
    case 'secret':
      control = <Input.Password data-testid={testId} placeholder={placeholder} autoComplete="new-password" />;
      break;
    default:
      control = (
        <Input
          data-testid={testId}
          type={field.kind === 'email' ? 'email' : 'text'}
          inputMode={field.kind === 'url' ? 'url' : undefined}
          placeholder={placeholder}
        />
      );
  }

  return (
    <Col xs={24} md={WIDE_KINDS.has(field.kind) ? 24 : 12}>
      <Form.Item
        name={['settings', field.name]}
        label={t(field.label, { defaultValue: field.name })}
        rules={rules}
        required={mandatory}
        valuePropName={valuePropName}
        tooltip={i18n.exists(`configs:${helpKey}`) ? t(helpKey, { placeholders: BODY_PLACEHOLDERS }) : undefined}
      >
        {control}
      </Form.Item>
    </Col>
  );
}
