/**
 * A group's configurations as a sortable list: ticked ones come first in priority order (1..n) and can be
 * dragged, or moved with the arrow keys on their handle; the rest sit below with the unselected priority.
 */
import { HolderOutlined } from '@ant-design/icons';
import { UNSELECTED_CONFIG_PRIORITY } from '@herald/shared';
import { Checkbox, Flex, Tag, Typography, theme } from 'antd';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProviderConfig } from './api';
import { typeLabel } from './labels';

interface ConfigOrderListProps {
  configs: ProviderConfig[];
  /** Ids of the selected configurations in priority order. */
  value?: number[];
  onChange?: (value: number[]) => void;
}

function moveTo(list: readonly number[], id: number, index: number): number[] {
  const rest = list.filter((entry) => entry !== id);
  rest.splice(Math.max(0, Math.min(index, rest.length)), 0, id);
  return rest;
}

export function ConfigOrderList({ configs, value = [], onChange }: ConfigOrderListProps) {
  const { t } = useTranslation('configs');
  const { token } = theme.useToken();
  const [dragged, setDragged] = useState<number>();
  const byId = new Map(configs.map((config) => [config.id, config]));
  // A selected id whose configuration is gone (deleted elsewhere) is dropped rather than shown blank.
  const chosen = value.flatMap((id) => byId.get(id) ?? []);
  const selected = chosen.map((config) => config.id);
  const unselected = configs.filter((config) => !selected.includes(config.id));
  const change = (next: number[]) => onChange?.(next);

  const toggle = (id: number, checked: boolean) =>
    change(checked ? [...selected.filter((entry) => entry !== id), id] : selected.filter((entry) => entry !== id));

  const onHandleKey = (event: KeyboardEvent, id: number, index: number) => {
    const step = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
    if (step === 0) return;
    event.preventDefault();
    change(moveTo(selected, id, index + step));
    // The row is re-rendered at its new place; keep the keyboard focus on its handle.
    requestAnimationFrame(() => document.getElementById(`group-handle-${id}`)?.focus());
  };

  const row = (config: ProviderConfig, index: number | undefined) => {
    const isSelected = index !== undefined;
    const isDragged = dragged === config.id;
    return (
      <li
        key={config.id}
        data-testid={`group-config-${config.id}`}
        data-priority={isSelected ? index + 1 : UNSELECTED_CONFIG_PRIORITY}
        draggable={isSelected}
        onDragStart={(event) => {
          setDragged(config.id);
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', String(config.id));
        }}
        onDragEnter={() => {
          if (isSelected && dragged !== undefined && dragged !== config.id) change(moveTo(selected, dragged, index));
        }}
        onDragOver={(event) => {
          if (isSelected && dragged !== undefined) event.preventDefault();
        }}
        onDrop={(event) => event.preventDefault()}
        onDragEnd={() => setDragged(undefined)}
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 10,
          padding: '8px 12px',
          marginBottom: 6,
          borderRadius: token.borderRadius,
          border: `1px ${isDragged ? 'dashed' : 'solid'} ${isDragged ? token.colorPrimary : token.colorBorderSecondary}`,
          background: isSelected ? token.colorBgContainer : token.colorFillQuaternary,
          opacity: isDragged ? 0.6 : 1,
          cursor: isSelected ? 'grab' : 'default',
          userSelect: 'none',
        }}
      >
        <button
          type="button"
          id={`group-handle-${config.id}`}
          disabled={!isSelected}
          aria-label={t('groups.form.handle', { name: config.name })}
          onKeyDown={(event) => isSelected && onHandleKey(event, config.id, index)}
          style={{
            display: 'inline-flex',
            padding: 2,
            border: 0,
            background: 'none',
            cursor: 'inherit',
            color: isSelected ? token.colorTextSecondary : token.colorTextQuaternary,
          }}
        >
          <HolderOutlined />
        </button>
        <Checkbox checked={isSelected} onChange={(event) => toggle(config.id, event.target.checked)} aria-label={config.name} />
        <span
          style={{
            minWidth: 28,
            textAlign: 'center',
            fontWeight: 600,
            fontVariantNumeric: 'tabular-nums',
            color: isSelected ? token.colorPrimary : token.colorTextQuaternary,
          }}
          title={t('groups.form.priority')}
        >
          {isSelected ? index + 1 : UNSELECTED_CONFIG_PRIORITY}
        </span>
        <Flex vertical style={{ flex: 1, minWidth: 0 }}>
          <Typography.Text strong={isSelected} ellipsis>
            {config.name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {typeLabel(t, config.type)}
          </Typography.Text>
        </Flex>
        {!config.active && <Tag style={{ marginInlineEnd: 0 }}>{t('state.inactive')}</Tag>}
      </li>
    );
  };

  if (configs.length === 0) return <Typography.Text type="secondary">{t('groups.form.noConfigsAvailable')}</Typography.Text>;

  return (
    <div data-testid="group-config-list">
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>{chosen.map((config, index) => row(config, index))}</ul>
      {unselected.length > 0 && (
        <>
          <Typography.Text
            type="secondary"
            style={{ display: 'block', fontSize: 12, margin: `${chosen.length > 0 ? 10 : 0}px 0 6px` }}
          >
            {t('groups.form.unselected', { priority: UNSELECTED_CONFIG_PRIORITY })}
          </Typography.Text>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>{unselected.map((config) => row(config, undefined))}</ul>
        </>
      )}
    </div>
  );
}
