/** Create or rename a contact list, with the country national phone numbers are read in. */
import { App, Button, Form, Input, Modal, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../configs/formErrors';
import { useCountryOptions } from '../../configs/labels';
import { type ContactList, listsApi } from './api';

interface FormValues {
  name?: string;
  defaultCountry?: string | null;
}

interface ListFormProps {
  open: boolean;
  list?: ContactList;
  onClose: () => void;
  onSaved: (list: ContactList) => void;
}

/** Longest list name the server accepts. */
const MAX_NAME_LENGTH = 120;

export function ListForm({ open, list, onClose, onSaved }: ListFormProps) {
  const { t } = useTranslation('contacts');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const countries = useCountryOptions();
  const editing = list !== undefined;

  const { saving, save } = useFormSubmit(
    form,
    async (values) => {
      const body = { name: (values.name ?? '').trim(), defaultCountry: values.defaultCountry ?? null };
      const saved = list ? await listsApi.update(list.id, body) : await listsApi.create(body);
      message.success(t(editing ? 'lists.form.renamed' : 'lists.form.created', { name: saved.name }));
      onSaved(saved);
    },
    (field) => (field === 'name' || field === 'defaultCountry' ? [field] : undefined),
  );

  return (
    <Modal
      open={open}
      onCancel={onClose}
      destroyOnHidden
      width={520}
      title={editing ? t('lists.form.editTitle', { name: list.name }) : t('lists.form.createTitle')}
      footer={
        <Space>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="primary" data-testid="contact-list-save" loading={saving} onClick={save}>
            {t(editing ? 'actions.save' : 'lists.form.create')}
          </Button>
        </Space>
      }
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        data-testid="contact-list-form"
        requiredMark={false}
        initialValues={{ name: list?.name ?? '', defaultCountry: list?.defaultCountry ?? null }}
      >
        <Form.Item
          name="name"
          label={t('lists.form.name')}
          rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
        >
          <Input
            data-testid="contact-list-name"
            maxLength={MAX_NAME_LENGTH}
            placeholder={t('lists.form.namePlaceholder')}
            autoFocus
            onPressEnter={save}
          />
        </Form.Item>
        <Form.Item name="defaultCountry" label={t('lists.form.country')} extra={t('lists.form.countryHelp')}>
          <Select
            data-testid="contact-list-country"
            allowClear
            showSearch={{ optionFilterProp: 'search' }}
            placeholder={t('lists.form.countryPlaceholder')}
            options={countries}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
