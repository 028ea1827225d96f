/** "Insert variable": contact fields, a contact attribute, the account's variables, the unsubscribe link and a default-value filter. */
import { DownOutlined, FunctionOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Dropdown, Flex, type MenuProps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CONTACT_FIELDS, variablesQuery } from './api';
import type { Snippet } from './textInsert';

const MANAGE = 'manage';

function output(path: string): Snippet {
  return { text: `{{ ${path} }}` };
}

function entry(code: string, description: string) {
  return (
    <Flex justify="space-between" gap={16}>
      <Typography.Text code style={{ fontSize: 12 }}>
        {code}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis style={{ maxWidth: 200, fontSize: 12 }}>
        {description}
      </Typography.Text>
    </Flex>
  );
}

export function VariableMenu({ onInsert, size = 'small' }: { onInsert: (snippet: Snippet) => void; size?: 'small' | 'middle' }) {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  const variables = useQuery(variablesQuery);
  const snippets = new Map<string, Snippet>();

  const item = (key: string, snippet: Snippet, description: string) => {
    snippets.set(key, snippet);
    return { key, label: entry(snippet.text, description) };
  };

  const attribute = '{{ contact.attributes.key }}';
  const word = t('variablesMenu.defaultWord');
  const fallback = `{{ contact.name | default: "${word}" }}`;
  const vars = variables.data ?? [];

  const items: MenuProps['items'] = [
    {
      type: 'group',
      key: 'contact',
      label: t('variablesMenu.contact'),
      children: [
        ...CONTACT_FIELDS.map((field) =>
          item(`contact.${field}`, output(`contact.${field}`), t(`variablesMenu.fields.${field}`)),
        ),
        item(
          'contact.attributes',
          { text: attribute, select: [attribute.indexOf('key'), attribute.indexOf('key') + 3] },
          t('variablesMenu.attribute'),
        ),
      ],
    },
    { type: 'divider' },
    {
      type: 'group',
      key: 'vars',
      label: t('variablesMenu.account'),
      children: [
        ...vars.map((variable) => item(`vars.${variable.name}`, output(`vars.${variable.name}`), variable.value)),
        ...(vars.length === 0 ? [{ key: 'none', disabled: true, label: t('variablesMenu.noVariables') }] : []),
        { key: MANAGE, label: t('variablesMenu.manage') },
      ],
    },
    { type: 'divider' },
    {
      type: 'group',
      key: 'links',
      label: t('variablesMenu.links'),
      children: [item('unsubscribe_url', output('unsubscribe_url'), t('variablesMenu.unsubscribe'))],
    },
    { type: 'divider' },
    {
      type: 'group',
      key: 'filters',
      label: t('variablesMenu.filters'),
      children: [
        item(
          'default',
          { text: fallback, select: [fallback.indexOf(word), fallback.indexOf(word) + word.length] },
          t('variablesMenu.defaultFilter'),
        ),
      ],
    },
  ];

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        style: { maxHeight: 420, overflowY: 'auto' },
        onClick: ({ key }) => {
          if (key === MANAGE) navigate('/templates/variables');
          const snippet = snippets.get(key);
          if (snippet) onInsert(snippet);
        },
      }}
    >
      <Button size={size} icon={<FunctionOutlined />} data-testid="insert-variable">
        {t('variablesMenu.button')} <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
