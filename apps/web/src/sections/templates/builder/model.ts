/**
 * The visual builder's document: global settings plus an ordered list of blocks. It is stored as the template's
 * builder JSON, so readDocument accepts anything and answers a complete, clamped document.
 */

export type Align = 'left' | 'center' | 'right';
export type BlockType = 'heading' | 'text' | 'image' | 'button' | 'divider' | 'spacer' | 'columns';
export const BLOCK_TYPES: readonly BlockType[] = ['heading', 'text', 'image', 'button', 'divider', 'spacer', 'columns'];

export interface HeadingBlock {
  id: string;
  type: 'heading';
  text: string;
  level: 1 | 2 | 3;
  align: Align;
}

/** Text with **bold**, *italic* and [links](https://…); a blank line starts a new paragraph. */
export interface TextBlock {
  id: string;
  type: 'text';
  text: string;
  align: Align;
}

export interface ImageBlock {
  id: string;
  type: 'image';
  src: string;
  alt: string;
  /** Where a click on the image leads; empty for none. */
  href: string;
  /** Share of the content width, in percent. */
  width: number;
  align: Align;
}

export interface ButtonBlock {
  id: string;
  type: 'button';
  label: string;
  href: string;
  align: Align;
  /** Empty means the brand colour. */
  color: string;
}

export interface DividerBlock {
  id: string;
  type: 'divider';
  color: string;
  thickness: number;
}

export interface SpacerBlock {
  id: string;
  type: 'spacer';
  height: number;
}

export interface Column {
  image: string;
  alt: string;
  heading: string;
  text: string;
}

export interface ColumnsBlock {
  id: string;
  type: 'columns';
  columns: [Column, Column];
}

export type Block = HeadingBlock | TextBlock | ImageBlock | ButtonBlock | DividerBlock | SpacerBlock | ColumnsBlock;

export const FONTS = {
  system: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  arial: 'Arial, Helvetica, sans-serif',
  helvetica: "'Helvetica Neue', Helvetica, Arial, sans-serif",
  verdana: 'Verdana, Geneva, sans-serif',
  trebuchet: "'Trebuchet MS', Tahoma, sans-serif",
  georgia: "Georgia, 'Times New Roman', Times, serif",
  courier: "'Courier New', Courier, monospace",
} as const;
export type FontId = keyof typeof FONTS;

export interface BuilderSettings {
  /** Colour around the message. */
  background: string;
  /** Colour of the message area. */
  contentBackground: string;
  /** Width of the message area in pixels. */
  width: number;
  font: FontId;
  /** Buttons and links. */
  brandColor: string;
  textColor: string;
  /** The hidden line mail clients show next to the subject. */
  preheader: string;
}

export interface BuilderDocument {
  version: 1;
  settings: BuilderSettings;
  blocks: Block[];
}

export const LIMITS = {
  width: { min: 320, max: 800 },
  imageWidth: { min: 10, max: 100 },
  thickness: { min: 1, max: 8 },
  spacer: { min: 4, max: 160 },
} as const;

export const DEFAULT_SETTINGS: BuilderSettings = {
  background: '#f3f4f6',
  contentBackground: '#ffffff',
  width: 600,
  font: 'system',
  brandColor: '#1677ff',
  textColor: '#1f2937',
  preheader: '',
};

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function isColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

/** Ids only tell blocks apart on screen; randomUUID is missing on plain-http origins, so this does not use it. */
export function newId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

const emptyColumn = (): Column => ({ image: '', alt: '', heading: '', text: '' });

/** A new block of the type with content to start from; texts come from the caller, already translated. */
export function createBlock(type: BlockType, texts: { heading: string; text: string; button: string }): Block {
  const id = newId();
  switch (type) {
    case 'heading':
      return { id, type, text: texts.heading, level: 1, align: 'left' };
    case 'text':
      return { id, type, text: texts.text, align: 'left' };
    case 'image':
      return { id, type, src: '', alt: '', href: '', width: 100, align: 'center' };
    case 'button':
      return { id, type, label: texts.button, href: 'https://', align: 'center', color: '' };
    case 'divider':
      return { id, type, color: '#e5e7eb', thickness: 1 };
    case 'spacer':
      return { id, type, height: 24 };
    case 'columns':
      return {
        id,
        type,
        columns: [
          { ...emptyColumn(), heading: texts.heading, text: texts.text },
          { ...emptyColumn(), heading: texts.heading, text: texts.text },
        ],
      };
  }
}

export function emptyDocument(): BuilderDocument {
  return { version: 1, settings: { ...DEFAULT_SETTINGS }, blocks: [] };
}

function clamp(value: unknown, range: { min: number; max: number }, fallback: number): number {
  const number = typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback;
  return Math.min(range.max, Math.max(range.min, number));
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function align(value: unknown, fallback: Align): Align {
  return value === 'left' || value === 'center' || value === 'right' ? value : fallback;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function readColumn(value: unknown): Column {
  const raw = record(value);
  return { image: text(raw.image), alt: text(raw.alt), heading: text(raw.heading), text: text(raw.text) };
}

function readBlock(value: unknown): Block | null {
  const raw = record(value);
  const id = typeof raw.id === 'string' && raw.id ? raw.id : newId();
  switch (raw.type) {
    case 'heading':
      return {
        id,
        type: 'heading',
        text: text(raw.text),
        level: raw.level === 2 || raw.level === 3 ? raw.level : 1,
        align: align(raw.align, 'left'),
      };
    case 'text':
      return { id, type: 'text', text: text(raw.text), align: align(raw.align, 'left') };
    case 'image':
      return {
        id,
        type: 'image',
        src: text(raw.src),
        alt: text(raw.alt),
        href: text(raw.href),
        width: clamp(raw.width, LIMITS.imageWidth, 100),
        align: align(raw.align, 'center'),
      };
    case 'button':
      return {
        id,
        type: 'button',
        label: text(raw.label),
        href: text(raw.href),
        align: align(raw.align, 'center'),
        color: isColor(raw.color) ? raw.color : '',
      };
    case 'divider':
      return {
        id,
        type: 'divider',
        color: isColor(raw.color) ? raw.color : '#e5e7eb',
        thickness: clamp(raw.thickness, LIMITS.thickness, 1),
      };
    case 'spacer':
      return { id, type: 'spacer', height: clamp(raw.height, LIMITS.spacer, 24) };
    case 'columns': {
      const columns = Array.isArray(raw.columns) ? raw.columns : [];
      return { id, type: 'columns', columns: [readColumn(columns[0]), readColumn(columns[1])] };
    }
    default:
      return null;
  }
}

/** A stored builder JSON as a complete document; unknown blocks are dropped, out-of-range numbers clamped. */
export function readDocument(value: unknown): BuilderDocument {
  const raw = record(value);
  const settings = record(raw.settings);
  const font = typeof settings.font === 'string' && settings.font in FONTS ? (settings.font as FontId) : DEFAULT_SETTINGS.font;
  const color = (key: 'background' | 'contentBackground' | 'brandColor' | 'textColor') =>
    isColor(settings[key]) ? (settings[key] as string) : DEFAULT_SETTINGS[key];
  const blocks = Array.isArray(raw.blocks) ? raw.blocks : [];
  return {
    version: 1,
    settings: {
      background: color('background'),
      contentBackground: color('contentBackground'),
      width: clamp(settings.width, LIMITS.width, DEFAULT_SETTINGS.width),
      font,
      brandColor: color('brandColor'),
      textColor: color('textColor'),
      preheader: text(settings.preheader),
    },
    blocks: blocks.map(readBlock).filter((block): block is Block => block !== null),
  };
}
