/**
 * The builder's HTML: nested presentation tables with inline styles, the layout mail clients render alike
 * (Outlook included). Pure and offline: no DOM, no fetch. Liquid tags in any text pass through untouched,
 * everything else is escaped, and only http(s), mailto and tel links survive.
 */
import { isAllowedUrl } from '@herald/shared';
import {
  type Align,
  type Block,
  type BuilderDocument,
  type BuilderSettings,
  type Column,
  FONTS,
  isColor,
  readDocument,
} from './model';

/** Side padding of the message area; content widths below are what is left inside it. */
const GUTTER = 32;
const COLUMN_GAP = 16;
const HEADING_SIZES = { 1: 28, 2: 22, 3: 18 } as const;
const LIQUID = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
/** Private-use marks for stashed fragments; user text never keeps them (they are stripped first). */
const STASH_OPEN = '\uE000';
const STASH_CLOSE = '\uE001';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Escapes everything but Liquid tags, which must reach the renderer byte for byte (quotes in filters included). */
function escapeKeepingLiquid(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(LIQUID)) {
    out += escapeHtml(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

/** A link target that is safe to put in an href: an allowed scheme, or one starting with a Liquid output. */
export function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed.startsWith('{{')) return trimmed;
  return isAllowedUrl(trimmed) ? trimmed : null;
}

function attribute(url: string): string {
  return escapeKeepingLiquid(url);
}

class Stash {
  private readonly parts: string[] = [];

  put(fragment: string): string {
    this.parts.push(fragment);
    return `${STASH_OPEN}${this.parts.length - 1}${STASH_CLOSE}`;
  }

  restore(text: string): string {
    return text.replace(
      new RegExp(`${STASH_OPEN}(\\d+)${STASH_CLOSE}`, 'g'),
      (_, index: string) => this.parts[Number(index)] ?? '',
    );
  }
}

/** One line of markdown-ish text: **bold**, *italic*, [label](url); Liquid is kept out of the markup rules. */
function inline(source: string, linkColor: string): string {
  const stash = new Stash();
  let text = source.replace(new RegExp(`[${STASH_OPEN}${STASH_CLOSE}]`, 'g'), '');
  text = text.replace(LIQUID, (tag) => stash.put(tag));
  text = escapeHtml(text);
  text = text.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_, label: string, target: string) => {
    const url = safeUrl(stash.restore(unescapeHtml(target)));
    if (url === null) return label;
    const open = `<a href="${attribute(url)}" target="_blank" style="color:${linkColor};text-decoration:underline;">`;
    return `${stash.put(open)}${label}${stash.put('</a>')}`;
  });
  text = text.replace(/\*\*([^*\n]+?)\*\*/g, '<strong>$1</strong>');
  text = text.replace(/(^|[^*])\*([^*\s](?:[^*\n]*?[^*\s])?)\*(?!\*)/g, '$1<em>$2</em>');
  return stash.restore(text);
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Paragraphs split on blank lines; single line breaks become <br>. */
function paragraphs(source: string, style: string, linkColor: string): string {
  return source
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map(
      (paragraph) =>
        `<p style="${style}">${paragraph
          .split('\n')
          .map((line) => inline(line, linkColor))
          .join('<br>')}</p>`,
    )
    .join('');
}

/** Dark text on light colours and white on dark ones, so a button label stays readable on any brand colour. */
export function readableOn(color: string): string {
  const hex = color.length === 4 ? color.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : color;
  const [r, g, b] = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255) as [number, number, number];
  const linear = (channel: number) => (channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  return luminance > 0.45 ? '#111827' : '#ffffff';
}

function margins(align: Align): string {
  if (align === 'center') return 'margin:0 auto;';
  if (align === 'right') return 'margin:0 0 0 auto;';
  return 'margin:0;';
}

interface Context {
  settings: BuilderSettings;
  font: string;
  /** Pixels available to a block inside the gutters. */
  inner: number;
}

function row(content: string, padding = `8px ${GUTTER}px`, extra = ''): string {
  return `<tr><td style="padding:${padding};${extra}">${content}</td></tr>`;
}

function textStyle(context: Context, align: Align, size = 16): string {
  return `margin:0 0 12px;font-family:${context.font};font-size:${size}px;line-height:1.6;color:${context.settings.textColor};text-align:${align};`;
}

function headingHtml(text: string, level: 1 | 2 | 3, align: Align, context: Context, margin = '0'): string {
  const size = HEADING_SIZES[level];
  const style = `margin:${margin};font-family:${context.font};font-size:${size}px;line-height:1.3;font-weight:700;color:${context.settings.textColor};text-align:${align};`;
  return `<h${level} style="${style}">${inline(text, context.settings.brandColor)}</h${level}>`;
}

function imageHtml(src: string, alt: string, width: number, align: Align, href: string): string {
  const url = safeUrl(src);
  if (url === null) return '';
  const image = `<img src="${attribute(url)}" alt="${escapeKeepingLiquid(alt)}" width="${width}" style="display:block;width:100%;max-width:${width}px;height:auto;border:0;outline:none;text-decoration:none;${margins(align)}">`;
  const link = href ? safeUrl(href) : null;
  return link === null ? image : `<a href="${attribute(link)}" target="_blank" style="text-decoration:none;">${image}</a>`;
}

function buttonHtml(label: string, href: string, align: Align, color: string, context: Context): string {
  const background = isColor(color) ? color : context.settings.brandColor;
  const foreground = readableOn(background);
  const url = safeUrl(href) ?? '#';
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="${align}" style="${margins(align)}border-collapse:separate;">` +
    `<tr><td align="center" bgcolor="${background}" style="border-radius:6px;background-color:${background};">` +
    `<a href="${attribute(url)}" target="_blank" style="display:inline-block;padding:12px 28px;font-family:${context.font};font-size:16px;font-weight:600;line-height:20px;color:${foreground};text-decoration:none;border-radius:6px;">${inline(label, foreground)}</a>` +
    '</td></tr></table>'
  );
}

function columnHtml(column: Column, width: number, context: Context): string {
  const parts = [
    column.image ? `<div style="margin:0 0 12px;">${imageHtml(column.image, column.alt, width, 'left', '')}</div>` : '',
    column.heading ? headingHtml(column.heading, 3, 'left', context, '0 0 8px') : '',
    paragraphs(column.text, textStyle(context, 'left', 15), context.settings.brandColor),
  ];
  return parts.join('');
}

function blockHtml(block: Block, context: Context): string {
  const { settings } = context;
  switch (block.type) {
    case 'heading':
      return row(headingHtml(block.text, block.level, block.align, context), `16px ${GUTTER}px 8px`);
    case 'text':
      return row(paragraphs(block.text, textStyle(context, block.align), settings.brandColor), `8px ${GUTTER}px 0`);
    case 'image': {
      const html = imageHtml(block.src, block.alt, Math.round((context.inner * block.width) / 100), block.align, block.href);
      return html ? row(html, `8px ${GUTTER}px`, `text-align:${block.align};`) : '';
    }
    case 'button':
      return row(buttonHtml(block.label, block.href, block.align, block.color, context), `12px ${GUTTER}px`);
    case 'divider':
      return row(
        '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">' +
          `<tr><td style="border-top:${block.thickness}px solid ${block.color};font-size:0;line-height:0;height:0;">&nbsp;</td></tr></table>`,
        `12px ${GUTTER}px`,
      );
    case 'spacer':
      return `<tr><td height="${block.height}" style="height:${block.height}px;font-size:0;line-height:0;mso-line-height-rule:exactly;">&nbsp;</td></tr>`;
    case 'columns': {
      const width = Math.floor((context.inner - COLUMN_GAP) / 2);
      const cell = (column: Column, padding: string) =>
        `<td class="herald-column" width="50%" valign="top" style="width:50%;vertical-align:top;padding:${padding};">${columnHtml(column, width, context)}</td>`;
      return row(
        '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>' +
          cell(block.columns[0], `0 ${COLUMN_GAP / 2}px 0 0`) +
          cell(block.columns[1], `0 0 0 ${COLUMN_GAP / 2}px`) +
          '</tr></table>',
        `8px ${GUTTER}px`,
      );
    }
  }
}

/** The whole e-mail for a builder document; the subject (Liquid allowed) becomes the page title. */
export function generateEmailHtml(document: BuilderDocument, options: { title?: string; lang?: string } = {}): string {
  // Normalised again so a hand-edited or old document can never put raw values into the markup.
  const { settings, blocks } = readDocument(document);
  const context: Context = { settings, font: FONTS[settings.font], inner: settings.width - 2 * GUTTER };
  const preheader = settings.preheader
    ? `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all;font-size:1px;line-height:1px;color:${settings.background};opacity:0;">${escapeKeepingLiquid(settings.preheader)}</div>`
    : '';
  const rows = blocks.map((block) => blockHtml(block, context)).join('\n');
  return [
    '<!DOCTYPE html>',
    `<html${options.lang ? ` lang="${escapeHtml(options.lang)}"` : ''} xmlns="http://www.w3.org/1999/xhtml">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta http-equiv="X-UA-Compatible" content="IE=edge">',
    '<meta name="x-apple-disable-message-reformatting">',
    `<title>${escapeKeepingLiquid(options.title ?? '')}</title>`,
    // Only the narrow-screen overrides live here; every look is inline, for clients that drop <style>.
    `<style>@media only screen and (max-width:${settings.width + 20}px){.herald-container{width:100% !important;}.herald-column{display:block !important;width:100% !important;padding:0 0 16px 0 !important;}}</style>`,
    '</head>',
    `<body style="margin:0;padding:0;width:100%;background-color:${settings.background};-webkit-text-size-adjust:100%;-ms-text-size-adjust:100%;">`,
    preheader,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${settings.background}" style="background-color:${settings.background};">`,
    '<tr><td align="center" style="padding:24px 12px;">',
    `<table role="presentation" class="herald-container" width="${settings.width}" cellpadding="0" cellspacing="0" border="0" bgcolor="${settings.contentBackground}" style="width:100%;max-width:${settings.width}px;background-color:${settings.contentBackground};border-radius:8px;">`,
    '<tr><td height="16" style="height:16px;font-size:0;line-height:0;">&nbsp;</td></tr>',
    rows,
    '<tr><td height="24" style="height:24px;font-size:0;line-height:0;">&nbsp;</td></tr>',
    '</table>',
    '</td></tr>',
    '</table>',
    '</body>',
    '</html>',
  ]
    .filter((line) => line !== '')
    .join('\n');
}
