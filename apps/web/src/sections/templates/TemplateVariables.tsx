/** Template variables: named values any template reads as vars.<name>, added and edited in place in the table. */
import { CheckOutlined, CloseOutlined, CodeOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Popconfirm, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type HTMLAttributes, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { textList } from '../../ui/textList';
import { showSubmitError } from '../configs/formErrors';
import { VARIABLE_NAME_PATTERN, VARIABLES_KEY, type Variable, variablesApi, variablesQuery } from './api';

/** The row being edited (an existing variable by name, or the new one) and the values it starts from. */
type Editing = ({ kind: 'new' } | { kind: 'existing'; name: string }) & { initial: Variable };

const NEW_ROW = '\u0000new';

export default function TemplateVariables() {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const variables = useQuery(variablesQuery);
  const [form] = Form.useForm<Variable>();
  const [editing, setEditing] = useState<Editing>();
  const [saving, setSaving] = useState(false);

  const rowKey = (variable: Variable) => (variable.name === NEW_ROW ? NEW_ROW : variable.name);
  const isEditing = (variable: Variable) =>
    editing !== undefined && (editing.kind === 'new' ? variable.name === NEW_ROW : editing.name === variable.name);

  // The row's inputs exist only once it renders as edited, so they are filled after that render.
  useEffect(() => {
    if (editing) form.setFieldsValue(editing.initial);
  }, [editing, form]);

  const save = async () => {
    if (!editing) return;
    let values: Variable;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body = { name: values.name.trim(), value: values.value ?? '' };
    setSaving(true);
    try {
      const saved = editing.kind === 'new' ? await variablesApi.create(body) : await variablesApi.update(editing.name, body);
      message.success(t(editing.kind === 'new' ? 'variables.created' : 'variables.updated', { name: saved.name }));
      setEditing(undefined);
      await queryClient.invalidateQueries({ queryKey: VARIABLES_KEY });
    } catch (error) {
      showSubmitError(form, error, (field) => (field === 'name' || field === 'value' ? [field] : undefined));
    } finally {
      setSaving(false);
    }
  };

  const remove = (variable: Variable) =>
    variablesApi
      .remove(variable.name)
      .then(() => {
        message.success(t('variables.deleted', { name: variable.name }));
        void queryClient.invalidateQueries({ queryKey: VARIABLES_KEY });
      })
      // Already reported by the HTTP client.
      .catch(() => undefined);

  const add = () => setEditing({ kind: 'new', initial: { name: '', value: '' } });

  const rows: Variable[] = [...(editing?.kind === 'new' ? [{ name: NEW_ROW, value: '' }] : []), ...(variables.data ?? [])];

  const columns: ColumnsType<Variable> = [
    {
      key: 'name',
      title: t('variables.columns.name'),
      width: '28%',
      render: (_, variable) =>
        isEditing(variable) ? (
          <Form.Item
            name="name"
            style={{ margin: 0 }}
            rules={[
              { required: true, whitespace: true, message: t('errors:validation.mandatory') },
              { pattern: VARIABLE_NAME_PATTERN, message: t('errors:templates.invalidVariableName') },
            ]}
          >
            <Input
              data-testid="variable-name"
              maxLength={64}
              placeholder="company"
              autoFocus
              autoComplete="off"
              onPressEnter={save}
            />
          </Form.Item>
        ) : (
          <Typography.Text strong>{variable.name}</Typography.Text>
        ),
    },
    {
      key: 'value',
      title: t('variables.columns.value'),
      render: (_, variable) =>
        isEditing(variable) ? (
          <Form.Item name="value" style={{ margin: 0 }}>
            <Input.TextArea
              data-testid="variable-value"
              autoSize={{ minRows: 1, maxRows: 6 }}
              maxLength={64 * 1024}
              placeholder={t('variables.valuePlaceholder')}
            />
          </Form.Item>
        ) : variable.value ? (
          <Typography.Paragraph ellipsis={{ rows: 2, tooltip: variable.value }} style={{ margin: 0 }}>
            {variable.value}
          </Typography.Paragraph>
        ) : (
          <Typography.Text type="secondary">{t('variables.emptyValue')}</Typography.Text>
        ),
    },
    {
      key: 'usage',
      title: t('variables.columns.usage'),
      width: 240,
      render: (_, variable) =>
        variable.name === NEW_ROW ? null : (
          <Typography.Text code copyable={{ text: `{{ vars.${variable.name} }}` }} style={{ whiteSpace: 'nowrap' }}>
            {`{{ vars.${variable.name} }}`}
          </Typography.Text>
        ),
    },
    {
      key: 'actions',
      title: t('variables.columns.actions'),
      align: 'right',
      width: 120,
      render: (_, variable) =>
        isEditing(variable) ? (
          <Space size={0}>
            <Tooltip title={t('actions.save')}>
              <Button
                type="text"
                icon={<CheckOutlined />}
                loading={saving}
                data-testid="variable-save"
                aria-label={t('actions.save')}
                onClick={save}
              />
            </Tooltip>
            <Tooltip title={t('actions.cancel')}>
              <Button
                type="text"
                icon={<CloseOutlined />}
                data-testid="variable-cancel"
                aria-label={t('actions.cancel')}
                onClick={() => setEditing(undefined)}
              />
            </Tooltip>
          </Space>
        ) : (
          <Space size={0}>
            <Tooltip title={t('actions.edit')}>
              <Button
                type="text"
                icon={<EditOutlined />}
                data-testid="variable-edit"
                aria-label={t('actions.edit')}
                disabled={editing !== undefined}
                onClick={() => setEditing({ kind: 'existing', name: variable.name, initial: variable })}
              />
            </Tooltip>
            <Popconfirm
              title={t('variables.deleteTitle', { name: variable.name })}
              description={t('variables.deleteDescription')}
              okText={t('actions.delete')}
              cancelText={t('actions.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => remove(variable)}
            >
              <Tooltip title={t('actions.delete')}>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  data-testid="variable-delete"
                  aria-label={t('actions.delete')}
                  disabled={editing !== undefined}
                />
              </Tooltip>
            </Popconfirm>
          </Space>
        ),
    },
  ];

  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} data-testid="variables-add" disabled={editing !== undefined} onClick={add}>
      {t('variables.add')}
    </Button>
  );

  if (variables.isSuccess && variables.data.length === 0 && editing === undefined) {
    return (
      <EmptyState
        testId="template-variables-empty"
        icon={<CodeOutlined />}
        title={t('variables.empty.title')}
        description={t('variables.empty.description')}
        capabilities={textList(t, 'variables.empty.capabilities')}
        actions={addButton}
      />
    );
  }

  return (
    <Card variant="borderless" data-testid="template-variables">
      <ScreenHeader title={t('variables.title')} subtitle={t('variables.subtitle')}>
        {addButton}
      </ScreenHeader>
      <Form form={form} component={false}>
        <Table<Variable>
          rowKey={rowKey}
          columns={columns}
          dataSource={rows}
          loading={variables.isPending}
          pagination={false}
          scroll={{ x: 720 }}
          onRow={(variable) =>
            ({
              'data-testid': variable.name === NEW_ROW ? 'variable-row-new' : `variable-row-${variable.name}`,
              onKeyDown: (event) => {
                if (event.key === 'Escape' && isEditing(variable)) setEditing(undefined);
              },
            }) as HTMLAttributes<HTMLElement>
          }
        />
      </Form>
    </Card>
  );
}
