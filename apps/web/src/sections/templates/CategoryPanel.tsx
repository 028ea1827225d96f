/** The template categories beside the list: pick the current one, add, rename and delete them. */
import { DeleteOutlined, EditOutlined, FolderOpenOutlined, FolderOutlined, MoreOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, Flex, Form, Input, Modal, Skeleton, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../configs/formErrors';
import { CATEGORIES_KEY, type Category, categoriesApi, TEMPLATES_KEY } from './api';

interface CategoryPanelProps {
  categories: Category[] | undefined;
  selected: number | null;
  onSelect: (categoryId: number | null) => void;
}

interface NameDialog {
  open: boolean;
  /** A new key per opening gives the form a fresh start. */
  key: number;
  category?: Category;
}

function CategoryNameModal({
  dialog,
  onClose,
  onSaved,
}: {
  dialog: NameDialog;
  onClose: () => void;
  onSaved: (category: Category) => void;
}) {
  const { t } = useTranslation('templates');
  const [form] = Form.useForm<{ name: string }>();
  const editing = dialog.category !== undefined;

  const { saving, save } = useFormSubmit(
    form,
    async (values) => {
      const name = values.name.trim();
      onSaved(dialog.category ? await categoriesApi.rename(dialog.category.id, name) : await categoriesApi.create(name));
    },
    (field) => (field === 'name' ? ['name'] : undefined),
  );

  return (
    <Modal
      open={dialog.open}
      onCancel={onClose}
      destroyOnHidden
      width={420}
      title={editing ? t('categories.renameTitle', { name: dialog.category?.name }) : t('categories.createTitle')}
      okText={editing ? t('actions.save') : t('categories.create')}
      cancelText={t('actions.cancel')}
      okButtonProps={{ loading: saving, 'data-testid': 'category-save' }}
      onOk={save}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: dialog.category?.name ?? '' }}
        onFinish={save}
      >
        <Form.Item
          name="name"
          label={t('categories.name')}
          rules={[{ required: true, whitespace: true, message: t('errors:validation.mandatory') }]}
        >
          <Input data-testid="category-name" maxLength={100} autoFocus placeholder={t('categories.namePlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function CategoryPanel({ categories, selected, onSelect }: CategoryPanelProps) {
  const { t } = useTranslation('templates');
  const { message, modal } = App.useApp();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<NameDialog>({ open: false, key: 0 });

  const openDialog = (category?: Category) => setDialog((previous) => ({ open: true, key: previous.key + 1, category }));

  const remove = (category: Category) =>
    modal.confirm({
      title: t('categories.deleteTitle', { name: category.name }),
      content: t('categories.deleteDescription', { count: category.templateCount }),
      okText: t('actions.delete'),
      okButtonProps: { danger: true, 'data-testid': 'category-delete-confirm' },
      cancelText: t('actions.cancel'),
      // A failed delete is already reported by the HTTP client; the dialog then just closes.
      onOk: () =>
        categoriesApi
          .remove(category.id)
          .then(() => {
            message.success(t('categories.deleted', { name: category.name }));
            if (selected === category.id) onSelect(null);
            void queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
            void queryClient.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
          })
          .catch(() => undefined),
    });

  const entry = (id: number | null, label: string, count: number | undefined, category?: Category) => {
    const active = selected === id;
    return (
      <Flex
        key={id ?? 'all'}
        align="center"
        gap={8}
        role="button"
        tabIndex={0}
        aria-pressed={active}
        data-testid={category ? `category-${category.name}` : 'category-all'}
        data-active={active}
        onClick={() => onSelect(id)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            onSelect(id);
          }
        }}
        className="template-category"
        style={{
          padding: '6px 8px 6px 12px',
          minHeight: 36,
          borderRadius: token.borderRadius,
          cursor: 'pointer',
          background: active ? token.controlItemBgActive : undefined,
          color: active ? token.colorPrimary : undefined,
          fontWeight: active ? 500 : undefined,
        }}
      >
        {active ? <FolderOpenOutlined /> : <FolderOutlined style={{ color: token.colorTextTertiary }} />}
        <Typography.Text ellipsis={{ tooltip: label }} style={{ flex: 1, color: 'inherit' }}>
          {label}
        </Typography.Text>
        {count !== undefined && (
          <Typography.Text type="secondary" style={{ fontSize: 12, fontVariantNumeric: 'tabular-nums' }}>
            {count}
          </Typography.Text>
        )}
        {category && (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                {
                  key: 'rename',
                  icon: <EditOutlined />,
                  label: <span data-testid="category-rename">{t('categories.rename')}</span>,
                },
                {
                  key: 'delete',
                  icon: <DeleteOutlined />,
                  danger: true,
                  label: <span data-testid="category-delete">{t('actions.delete')}</span>,
                },
              ],
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                if (key === 'rename') openDialog(category);
                else remove(category);
              },
            }}
          >
            <Button
              type="text"
              size="small"
              icon={<MoreOutlined />}
              data-testid="category-menu"
              aria-label={t('categories.actions', { name: category.name })}
              onClick={(event) => event.stopPropagation()}
            />
          </Dropdown>
        )}
      </Flex>
    );
  };

  return (
    <Flex vertical gap={2} data-testid="template-categories">
      <Flex justify="space-between" align="center" style={{ padding: '0 4px 8px 12px' }}>
        <Typography.Text type="secondary" strong style={{ fontSize: 12, textTransform: 'uppercase', letterSpacing: 0.5 }}>
          {t('categories.title')}
        </Typography.Text>
        <Button
          type="text"
          size="small"
          icon={<PlusOutlined />}
          data-testid="category-add"
          aria-label={t('categories.add')}
          title={t('categories.add')}
          onClick={() => openDialog()}
        />
      </Flex>
      {entry(null, t('categories.all'), undefined)}
      {categories === undefined ? (
        <Skeleton active paragraph={{ rows: 3 }} title={false} style={{ padding: 12 }} />
      ) : (
        categories.map((category) => entry(category.id, category.name, category.templateCount, category))
      )}
      {categories?.length === 0 && (
        <Typography.Text type="secondary" style={{ padding: '8px 12px', fontSize: 13 }}>
          {t('categories.none')}
        </Typography.Text>
      )}
      <CategoryNameModal
        key={dialog.key}
        dialog={dialog}
        onClose={() => setDialog((previous) => ({ ...previous, open: false }))}
        onSaved={(category) => {
          message.success(t(dialog.category ? 'categories.renamed' : 'categories.created', { name: category.name }));
          setDialog((previous) => ({ ...previous, open: false }));
          void queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
          void queryClient.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
          if (!dialog.category) onSelect(category.id);
        }}
      />
    </Flex>
  );
}
