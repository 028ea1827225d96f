/** How each block type looks in the palette and the block list: icon, name and a one-line summary. */
import {
  AlignLeftOutlined,
  BorderOutlined,
  ColumnHeightOutlined,
  FontSizeOutlined,
  LineOutlined,
  PictureOutlined,
  SplitCellsOutlined,
} from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { Block, BlockType } from './model';

export const BLOCK_ICONS: Record<BlockType, ReactNode> = {
  heading: <FontSizeOutlined />,
  text: <AlignLeftOutlined />,
  image: <PictureOutlined />,
  button: <BorderOutlined />,
  divider: <LineOutlined />,
  spacer: <ColumnHeightOutlined />,
  columns: <SplitCellsOutlined />,
};

/** Markdown marks left out, so the summary reads like the e-mail does. */
function plain(text: string): string {
  return text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\*+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function blockSummary(block: Block, t: TFunction): string {
  switch (block.type) {
    case 'heading':
    case 'text':
      return plain(block.text) || t('builder.summary.empty');
    case 'image':
      return block.alt || block.src || t('builder.summary.noImage');
    case 'button':
      return block.label ? `${block.label} → ${block.href}` : t('builder.summary.empty');
    case 'divider':
      return `${block.thickness} px · ${block.color}`;
    case 'spacer':
      return `${block.height} px`;
    case 'columns':
      return block.columns.map((column) => plain(column.heading) || plain(column.text) || '…').join(' | ');
  }
}
