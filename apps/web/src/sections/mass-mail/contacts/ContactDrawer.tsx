/** Add or edit one contact: addresses, name, language, time zone, status and free attributes for templates. */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type ContactStatus, isEmail } from '@herald/shared';
import { App, Button, Col, Divider, Drawer, Flex, Form, Input, Row, Select, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../configs/formErrors';
import { type Contact, type ContactList, contactsApi } from './api';
import { countryLabel, useLanguageOptions, useStatusOptions, useTimeZoneOptions } from './labels';

interface AttributeRow {
  name?: string;
  value?: string;
}

interface FormValues {
  email?: string;
  phone?: string;
  name?: string;
  language?: string | null;
  timeZone?: string | null;
  status: ContactStatus;
  attributes?: AttributeRow[];
}

interface ContactDrawerProps {
  open: boolean;
  list: ContactList;
  contact?: Contact;
  onClose: () => void;
  onSaved: (contact: Contact) => void;
}

/** The server's limits, so the form stops typing where the server would refuse. */
const MAX_EMAIL_LENGTH = 320;
const MAX_PHONE_LENGTH = 40;
const MAX_NAME_LENGTH = 200;
const MAX_ATTRIBUTE_LENGTH = 1000;
const MAX_ATTRIBUTES = 50;
const ATTRIBUTE_NAME = /^[\p{L}\p{N}_-]{1,64}$/u;

function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed ? trimmed : null;
}

export function ContactDrawer({ open, list, contact, onClose, onSaved }: ContactDrawerProps) {
  const { t, i18n } = useTranslation('contacts');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const statusOptions = useStatusOptions();
  const languages = useLanguageOptions();
  const zones = useTimeZoneOptions(contact?.timeZone);
  const editing = contact !== undefined;

  const initial: FormValues = {
    email: contact?.email ?? '',
    phone: contact?.phone ?? '',
    name: contact?.name ?? '',
    language: contact?.language ?? null,
    timeZone: contact?.timeZone ?? null,
    status: contact?.status ?? 'active',
    attributes: Object.entries(contact?.attributes ?? {}).map(([name, value]) => ({ name, value })),
  };

  const { saving, save } = useFormSubmit(
    form,
    async (values) => {
      const saved = await contactsApi.save(list.id, contact?.id, {
        email: blankToNull(values.email),
        phone: blankToNull(values.phone),
        name: blankToNull(values.name),
        language: values.language ?? null,
        timeZone: values.timeZone ?? null,
        status: values.status,
        attributes: Object.fromEntries((values.attributes ?? []).map((row) => [(row.name ?? '').trim(), row.value ?? ''])),
      });
      message.success(t(editing ? 'drawer.saved' : 'drawer.added'));
      onSaved(saved);
    },
    // "attributes.city" names an attribute: its row holds the message.
    (field, values) => {
      const [head, ...rest] = field.split('.');
      if (head === 'attributes' && rest.length > 0) {
        const name = rest.join('.');
        const index = (values.attributes ?? []).findIndex((row) => (row.name ?? '').trim() === name);
        if (index < 0) return undefined;
        return ['attributes', index, ATTRIBUTE_NAME.test(name) ? 'value' : 'name'];
      }
      return head && ['email', 'phone', 'name', 'language', 'timeZone', 'status'].includes(head) ? [head] : undefined;
    },
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      destroyOnHidden
      size={560}
      title={editing ? t('drawer.editTitle') : t('drawer.addTitle')}
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="primary" data-testid="contact-save" loading={saving} onClick={save}>
            {t(editing ? 'actions.save' : 'drawer.add')}
          </Button>
        </Flex>
      }
    >
      <Form<FormValues> form={form} layout="vertical" data-testid="contact-form" requiredMark={false} initialValues={initial}>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="email"
              label={t('fields.email')}
              dependencies={['phone']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: async (_, value: string | undefined) => {
                    const email = value?.trim() ?? '';
                    if (email && !isEmail(email.toLowerCase())) throw new Error(t('errors:validation.invalidEmail'));
                    if (!email && !blankToNull(getFieldValue('phone') as string | undefined)) {
                      throw new Error(t('errors:contacts.noAddress'));
                    }
                  },
                }),
              ]}
            >
              <Input data-testid="contact-email" maxLength={MAX_EMAIL_LENGTH} placeholder="name@example.com" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="phone"
              label={t('fields.phone')}
              extra={
                contact?.country
                  ? t('drawer.phoneCountry', { country: countryLabel(contact.country, i18n.language) })
                  : list.defaultCountry
                    ? t('drawer.phoneNational', { country: countryLabel(list.defaultCountry, i18n.language) })
                    : t('drawer.phoneInternational')
              }
            >
              <Input data-testid="contact-phone" maxLength={MAX_PHONE_LENGTH} placeholder="+380501234567" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="name" label={t('fields.name')}>
          <Input data-testid="contact-name" maxLength={MAX_NAME_LENGTH} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="language" label={t('fields.language')}>
              <Select
                data-testid="contact-language"
                allowClear
                showSearch={{ optionFilterProp: 'search' }}
                placeholder={t('drawer.notSet')}
                options={languages}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="timeZone" label={t('fields.timeZone')}>
              <Select
                data-testid="contact-timezone"
                allowClear
                showSearch={{ optionFilterProp: 'search' }}
                placeholder={t('drawer.notSet')}
                options={zones}
                popupMatchSelectWidth={360}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="status" label={t('fields.status')} extra={t('drawer.statusHelp')}>
          <Select data-testid="contact-status-select" options={statusOptions} />
        </Form.Item>
        <Divider titlePlacement="start" style={{ marginTop: 8 }}>
          {t('drawer.attributes')}
        </Divider>
        <Typography.Paragraph type="secondary">
          {t('drawer.attributesHelp', { example: '{{ contact.attributes.city }}' })}
        </Typography.Paragraph>
        <Form.List name="attributes">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Flex key={field.key} gap={8} align="start">
                  <Form.Item
                    name={[field.name, 'name']}
                    style={{ flex: '0 0 40%', marginBottom: 12 }}
                    rules={[
                      { required: true, whitespace: true, message: t('errors:validation.mandatory') },
                      {
                        validator: async (_, value: string | undefined) => {
                          if (value?.trim() && !ATTRIBUTE_NAME.test(value.trim())) {
                            throw new Error(t('errors:validation.invalidAttributeName'));
                          }
                        },
                      },
                      ({ getFieldValue }) => ({
                        validator: async (_, value: string | undefined) => {
                          const rows = (getFieldValue('attributes') as AttributeRow[] | undefined) ?? [];
                          const name = value?.trim();
                          if (name && rows.filter((row) => row?.name?.trim() === name).length > 1) {
                            throw new Error(t('drawer.attributeTwice'));
                          }
                        },
                      }),
                    ]}
                  >
                    <Input
                      data-testid={`contact-attribute-name-${field.name}`}
                      placeholder={t('drawer.attributeName')}
                      aria-label={t('drawer.attributeName')}
                      maxLength={64}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'value']} style={{ flex: 1, marginBottom: 12 }}>
                    <Input
                      data-testid={`contact-attribute-value-${field.name}`}
                      placeholder={t('drawer.attributeValue')}
                      aria-label={t('drawer.attributeValue')}
                      maxLength={MAX_ATTRIBUTE_LENGTH}
                    />
                  </Form.Item>
                  <Tooltip title={t('drawer.attributeRemove')}>
                    <Button
                      icon={<DeleteOutlined />}
                      aria-label={t('drawer.attributeRemove')}
                      data-testid={`contact-attribute-remove-${field.name}`}
                      onClick={() => remove(field.name)}
                    />
                  </Tooltip>
                </Flex>
              ))}
              <Space>
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  data-testid="contact-attribute-add"
                  disabled={fields.length >= MAX_ATTRIBUTES}
                  onClick={() => add({ name: '', value: '' })}
                >
                  {t('drawer.attributeAdd')}
                </Button>
              </Space>
            </>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}
