/** The template name field of the editor and the builder's save dialog: required, and refused unless a valid template name. */
import { isValidTemplateName } from '@herald/shared';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { NAME_MAX } from './api';

export function TemplateNameField({
  testId,
  placeholder,
  autoFocus,
}: {
  testId: string;
  placeholder: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('templates');
  return (
    <Form.Item
      name="name"
      label={t('editor.name')}
      tooltip={t('editor.nameHelp')}
      rules={[
        { required: true, whitespace: true, message: t('errors:validation.mandatory') },
        {
          validator: async (_, value: string | undefined) => {
            const trimmed = (value ?? '').trim();
            if (trimmed && !isValidTemplateName(trimmed)) throw new Error(t('errors:validation.invalidTemplateName'));
          },
        },
      ]}
    >
      <Input data-testid={testId} maxLength={NAME_MAX} placeholder={placeholder} autoComplete="off" autoFocus={autoFocus} />
    </Form.Item>
  );
}
