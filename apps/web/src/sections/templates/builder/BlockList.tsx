/**
 * The e-mail's blocks in order. A block is moved by dragging its handle (or with its arrow buttons), a palette
 * entry is dropped between blocks, and the selected block opens its properties in place.
 */
import { ArrowDownOutlined, ArrowUpOutlined, CopyOutlined, DeleteOutlined, HolderOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Tooltip, Typography, theme } from 'antd';
import { type DragEvent, Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BlockChange, BlockProperties } from './BlockProperties';
import { BLOCK_ICONS, blockSummary } from './blockMeta';
import type { Block, BlockType } from './model';

/** What is being dragged: a block of the list, or a new block from the palette. */
export type DragSource = { kind: 'move'; id: string } | { kind: 'new'; type: BlockType };

interface BlockListProps {
  blocks: Block[];
  selectedId: string | null;
  brandColor: string;
  drag: DragSource | null;
  onDrag: (drag: DragSource | null) => void;
  onSelect: (id: string | null) => void;
  onChange: (id: string, ...change: Parameters<BlockChange>) => void;
  onMove: (id: string, index: number) => void;
  onInsert: (type: BlockType, index: number) => void;
  onDuplicate: (id: string) => void;
  onRemove: (id: string) => void;
}

export function BlockList({
  blocks,
  selectedId,
  brandColor,
  drag,
  onDrag,
  onSelect,
  onChange,
  onMove,
  onInsert,
  onDuplicate,
  onRemove,
}: BlockListProps) {
  const { t } = useTranslation('templates');
  const { token } = theme.useToken();
  const [dropIndex, setDropIndex] = useState<number | null>(null);

  const finish = () => {
    setDropIndex(null);
    onDrag(null);
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    if (drag && dropIndex !== null) {
      if (drag.kind === 'new') onInsert(drag.type, dropIndex);
      else {
        const from = blocks.findIndex((block) => block.id === drag.id);
        // Removing the block first shifts every later slot up by one.
        onMove(drag.id, from < dropIndex ? dropIndex - 1 : dropIndex);
      }
    }
    finish();
  };

  const overBlock = (event: DragEvent<HTMLElement>, index: number) => {
    if (!drag) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = drag.kind === 'new' ? 'copy' : 'move';
    const box = event.currentTarget.getBoundingClientRect();
    setDropIndex(event.clientY < box.top + box.height / 2 ? index : index + 1);
  };

  const indicator = (index: number) =>
    drag && dropIndex === index ? (
      <li
        aria-hidden
        data-testid="builder-drop-indicator"
        style={{ height: 3, borderRadius: 2, background: token.colorPrimary, margin: '-1px 0' }}
      />
    ) : null;

  const iconButton = (title: string, icon: ReactNode, onClick: () => void, disabled = false, danger = false) => (
    <Tooltip title={title}>
      <Button
        type="text"
        size="small"
        icon={icon}
        danger={danger}
        disabled={disabled}
        aria-label={title}
        onClick={(event) => {
          event.stopPropagation();
          onClick();
        }}
      />
    </Tooltip>
  );

  return (
    <ul
      data-testid="builder-blocks"
      onDragOver={(event) => {
        if (!drag) return;
        event.preventDefault();
        // Below the last block (or on an empty list) the drop goes to the end.
        if (event.target === event.currentTarget || blocks.length === 0) setDropIndex(blocks.length);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropIndex(null);
      }}
      onDrop={drop}
      style={{
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
        minHeight: 120,
        margin: 0,
        padding: '0 0 24px',
        listStyle: 'none',
      }}
    >
      {blocks.length === 0 && (
        <li>
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('builder.emptyList')}
            style={{
              margin: 0,
              padding: '24px 12px',
              border: `1px dashed ${drag ? token.colorPrimary : token.colorBorder}`,
              borderRadius: token.borderRadiusLG,
              background: drag ? token.colorPrimaryBg : undefined,
            }}
          />
        </li>
      )}
      {blocks.map((block, index) => {
        const selected = block.id === selectedId;
        const dragged = drag?.kind === 'move' && drag.id === block.id;
        const name = t(`builder.blocks.${block.type}`);
        return (
          <Fragment key={block.id}>
            {indicator(index)}
            <li
              data-testid={`builder-block-${index}`}
              data-type={block.type}
              data-selected={selected}
              onDragOver={(event) => overBlock(event, index)}
              onDrop={drop}
              style={{
                border: `1px solid ${selected ? token.colorPrimary : token.colorBorderSecondary}`,
                borderRadius: token.borderRadiusLG,
                background: token.colorBgContainer,
                boxShadow: selected ? `0 0 0 2px ${token.controlOutline}` : undefined,
                opacity: dragged ? 0.45 : 1,
                transition: 'border-color 0.2s, box-shadow 0.2s',
              }}
            >
              <Flex align="center" gap={4} style={{ padding: '6px 6px 6px 4px' }}>
                <button
                  type="button"
                  draggable
                  data-testid="builder-block-handle"
                  // The arrow buttons and Alt+arrow keys are the keyboard's way to move a block.
                  tabIndex={-1}
                  aria-label={t('builder.dragHandle')}
                  title={t('builder.dragHandle')}
                  onDragStart={(event) => {
                    event.dataTransfer.effectAllowed = 'move';
                    event.dataTransfer.setData('text/plain', block.id);
                    onDrag({ kind: 'move', id: block.id });
                  }}
                  onDragEnd={finish}
                  style={{
                    display: 'inline-flex',
                    padding: '4px 2px',
                    border: 0,
                    background: 'none',
                    cursor: 'grab',
                    color: token.colorTextTertiary,
                  }}
                >
                  <HolderOutlined />
                </button>
                <button
                  type="button"
                  aria-expanded={selected}
                  data-testid="builder-block-toggle"
                  onClick={() => onSelect(selected ? null : block.id)}
                  onKeyDown={(event) => {
                    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
                      event.preventDefault();
                      onMove(block.id, index + (event.key === 'ArrowUp' ? -1 : 1));
                    }
                  }}
                  style={{
                    display: 'flex',
                    alignItems: 'center',
                    gap: 8,
                    flex: 1,
                    minWidth: 0,
                    padding: 0,
                    border: 0,
                    background: 'none',
                    font: 'inherit',
                    color: 'inherit',
                    textAlign: 'start',
                    cursor: 'pointer',
                  }}
                >
                  <span
                    style={{
                      display: 'inline-flex',
                      alignItems: 'center',
                      justifyContent: 'center',
                      width: 28,
                      height: 28,
                      borderRadius: token.borderRadius,
                      background: selected ? token.colorPrimaryBg : token.colorFillQuaternary,
                      color: selected ? token.colorPrimary : token.colorTextSecondary,
                      flex: '0 0 auto',
                    }}
                  >
                    {BLOCK_ICONS[block.type]}
                  </span>
                  <span style={{ display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0 }}>
                    <Typography.Text strong style={{ fontSize: 13 }}>
                      {name}
                    </Typography.Text>
                    <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }} data-testid="builder-block-summary">
                      {blockSummary(block, t)}
                    </Typography.Text>
                  </span>
                </button>
                <Flex gap={0} style={{ flex: '0 0 auto' }}>
                  {iconButton(t('builder.moveUp'), <ArrowUpOutlined />, () => onMove(block.id, index - 1), index === 0)}
                  {iconButton(
                    t('builder.moveDown'),
                    <ArrowDownOutlined />,
                    () => onMove(block.id, index + 1),
                    index === blocks.length - 1,
                  )}
                  {iconButton(t('builder.duplicate'), <CopyOutlined />, () => onDuplicate(block.id))}
                  {iconButton(t('builder.remove'), <DeleteOutlined />, () => onRemove(block.id), false, true)}
                </Flex>
              </Flex>
              {selected && (
                <div style={{ padding: '4px 12px 4px', borderTop: `1px solid ${token.colorBorderSecondary}` }}>
                  <BlockProperties
                    block={block}
                    brandColor={brandColor}
                    onChange={(patch, field) => onChange(block.id, patch, field)}
                  />
                </div>
              )}
            </li>
          </Fragment>
        );
      })}
      {indicator(blocks.length)}
    </ul>
  );
}
