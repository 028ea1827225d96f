/** Create or edit a provider group: a name and the category's configurations in failover order. */
import type { ChannelCategory } from '@herald/shared';
import { App, Button, Form, Input, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { groupsApi, type ProviderConfig, type ProviderGroup } from './api';
import { ConfigOrderList } from './ConfigOrderList';
import { useFormSubmit } from './formErrors';
import { CategoryTag } from './labels';

interface FormValues {
  name?: string;
  configs?: number[];
}

interface GroupFormProps {
  open: boolean;
  category: ChannelCategory;
  /** The category's configurations, in the order the list shows them. */
  configs: ProviderConfig[];
  group?: ProviderGroup;
  onClose: () => void;
  onSaved: (group: ProviderGroup) => void;
}

export function GroupForm({ open, category, configs, group, onClose, onSaved }: GroupFormProps) {
  const { t } = useTranslation('configs');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const editing = group !== undefined;
  const initial: FormValues = {
    name: group?.name ?? '',
    configs: [...(group?.configs ?? [])].sort((a, b) => a.priority - b.priority).map((member) => member.providerConfigId),
  };

  const { saving, save } = useFormSubmit(
    form,
    async (values) => {
      const saved = await groupsApi.save({
        ...(group ? { id: group.id } : {}),
        name: (values.name ?? '').trim(),
        category,
        configs: (values.configs ?? []).map((providerConfigId, index) => ({ providerConfigId, priority: index + 1 })),
      });
      message.success(t(editing ? 'groups.form.updated' : 'groups.form.created', { name: saved.name }));
      onSaved(saved);
    },
    // Failures on one member ("configs.2.providerConfigId") belong to the list as a whole.
    (field) => {
      const [head] = field.split('.');
      return head === 'name' || head === 'configs' ? [head] : undefined;
    },
  );

  return (
    <Modal
      open={open}
      onCancel={onClose}
      destroyOnHidden
      width={560}
      title={
        <Space>
          {editing ? t('groups.form.editTitle', { name: group.name }) : t('groups.form.createTitle')}
          <CategoryTag category={category} />
        </Space>
      }
      footer={
        <Space>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="primary" data-testid="group-save" loading={saving} onClick={save}>
            {t(editing ? 'actions.save' : 'groups.form.create')}
          </Button>
        </Space>
      }
    >
      <Form<FormValues> form={form} layout="vertical" data-testid="group-form" initialValues={initial} requiredMark={false}>
        <Form.Item
          name="name"
          label={t('groups.form.name')}
          rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
        >
          <Input data-testid="group-name" maxLength={120} placeholder={t('groups.form.namePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="configs"
          label={t('groups.form.configs')}
          extra={t('groups.form.configsHelp')}
          rules={[
            {
              validator: async (_, value: number[] | undefined) => {
                if (!value || value.length === 0) throw new Error(t('errors:groups.noConfigs'));
              },
            },
          ]}
        >
          <ConfigOrderList configs={configs} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
