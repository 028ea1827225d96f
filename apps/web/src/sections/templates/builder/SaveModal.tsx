/** "Save as template": name, subject and category, then the generated HTML and the blocks go to the server together. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/http';
import { showSubmitError } from '../../configs/formErrors';
import { categoriesQuery, type Template, type TemplateBody, templatesApi } from '../api';
import { TemplateNameField } from '../TemplateNameField';
import type { BuilderDocument } from './model';

interface FormValues {
  name: string;
  subject: string;
  categoryId: number | null;
}

const FORM_FIELDS = ['name', 'subject', 'categoryId'];

interface SaveModalProps {
  open: boolean;
  /** The template these blocks were opened from; none for a new design. */
  stored: Template | undefined;
  document: BuilderDocument;
  html: (subject: string) => string;
  defaultCategory: number | null;
  onClose: () => void;
  onSaved: (template: Template) => void;
}

export function SaveModal({ open, stored, document, html, defaultCategory, onClose, onSaved }: SaveModalProps) {
  const { t } = useTranslation('templates');
  const [form] = Form.useForm<FormValues>();
  const categories = useQuery(categoriesQuery);
  const [saving, setSaving] = useState(false);
  /** Server failures no field here can show: problems in the generated HTML or text. */
  const [other, setOther] = useState<string[]>([]);

  const save = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body: TemplateBody = {
      name: values.name.trim(),
      channel: 'EMAIL',
      categoryId: values.categoryId ?? null,
      subject: values.subject,
      html: html(values.subject),
      // A text part written by hand in the editor is kept; a generated one is generated again from the new HTML.
      text: stored && !stored.textGenerated ? stored.text : '',
      smsText: stored?.smsText ?? '',
      builder: document,
    };
    setSaving(true);
    setOther([]);
    try {
      onSaved(stored ? await templatesApi.replace(stored.name, body) : await templatesApi.create(body));
    } catch (error) {
      const fields = error instanceof ApiError ? (error.fields ?? []) : [];
      if (fields.length === 0) {
        showSubmitError(form, error);
        return;
      }
      const placed = new Map<string, string[]>();
      const elsewhere: string[] = [];
      for (const field of fields) {
        const name = field.field === 'newName' ? 'name' : field.field;
        if (FORM_FIELDS.includes(name)) placed.set(name, [...(placed.get(name) ?? []), field.message]);
        else elsewhere.push(field.message);
      }
      form.setFields([...placed].map(([name, errors]) => ({ name: name as keyof FormValues, errors })));
      setOther(elsewhere);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      destroyOnHidden
      width={520}
      title={stored ? t('builder.save.updateTitle', { name: stored.name }) : t('builder.save.title')}
      okText={stored ? t('actions.save') : t('builder.save.create')}
      cancelText={t('actions.cancel')}
      okButtonProps={{ loading: saving, 'data-testid': 'builder-save-submit' }}
      onOk={save}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        data-testid="builder-save-form"
        initialValues={{
          name: stored?.name ?? '',
          subject: stored?.subject ?? '',
          categoryId: stored ? stored.categoryId : defaultCategory,
        }}
      >
        <TemplateNameField testId="builder-name" placeholder="spring-newsletter" autoFocus />
        <Form.Item
          name="subject"
          label={t('editor.subject')}
          rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
        >
          <Input data-testid="builder-subject" placeholder={t('editor.subjectPlaceholder')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="categoryId" label={t('editor.category')}>
          <Select
            allowClear
            data-testid="builder-category"
            placeholder={t('editor.noCategory')}
            options={(categories.data ?? []).map((category) => ({ value: category.id, label: category.name }))}
            onClear={() => form.setFieldValue('categoryId', null)}
          />
        </Form.Item>
      </Form>
      {other.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="builder-save-problems"
          title={t('builder.save.problems')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {other.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          }
        />
      )}
    </Modal>
  );
}
