import { describe, expect, it } from 'vitest';
import { escapeHtml, generateEmailHtml, readableOn, safeUrl } from '../src/sections/templates/builder/generate';
import { type Block, type BuilderDocument, emptyDocument, LIMITS, readDocument } from '../src/sections/templates/builder/model';

function documentWith(...blocks: Block[]): BuilderDocument {
  return { ...emptyDocument(), blocks };
}

function bodyOf(html: string): string {
  return html.slice(html.indexOf('<body'));
}

describe('generateEmailHtml', () => {
  it('lays the e-mail out in presentation tables with inline styles', () => {
    const html = generateEmailHtml(
      documentWith(
        { id: 'a', type: 'heading', text: 'Welcome', level: 1, align: 'center' },
        { id: 'b', type: 'button', label: 'Open', href: 'https://example.com/start', align: 'center', color: '' },
      ),
      { title: 'Hello' },
    );
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<title>Hello</title>');
    expect(html).toContain('role="presentation"');
    expect(html).toContain('width="600"');
    expect(html).toMatch(/<h1 style="[^"]*font-size:28px[^"]*text-align:center;">Welcome<\/h1>/);
    expect(html).toContain('<a href="https://example.com/start" target="_blank" style="display:inline-block;');
    expect(html).toContain('bgcolor="#1677ff"');
    // Every element in the body carries its look inline: no classes other than the two mobile hooks.
    for (const match of bodyOf(html).matchAll(/class="([^"]+)"/g)) {
      expect(['herald-container', 'herald-column']).toContain(match[1]);
    }
    expect(bodyOf(html)).not.toContain('<style');
    expect(bodyOf(html)).not.toMatch(/<div|<section|display:flex|display:grid/);
  });

  it('escapes text and drops markup that could run', () => {
    const html = generateEmailHtml(
      documentWith(
        { id: 'a', type: 'heading', text: '<script>alert(1)</script>', level: 2, align: 'left' },
        { id: 'b', type: 'text', text: '<img src=x onerror=alert(1)> & "quotes"', align: 'left' },
        {
          id: 'c',
          type: 'image',
          src: 'https://example.com/a.png',
          alt: '" onerror="alert(1)',
          href: '',
          width: 50,
          align: 'left',
        },
      ),
    );
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/\sonerror="/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
    expect(html).toContain('alt="&quot; onerror=&quot;alert(1)"');
  });

  it('keeps Liquid tags byte for byte, quotes in filters included', () => {
    const greeting = 'Hi {{ contact.name | default: "friend" }} & welcome';
    const html = generateEmailHtml(
      documentWith(
        { id: 'a', type: 'text', text: `${greeting}\n{% if vars.company %}From {{ vars.company }}{% endif %}`, align: 'left' },
        { id: 'b', type: 'button', label: 'Go', href: 'https://example.com/?id={{ contact.id }}', align: 'left', color: '' },
      ),
      { title: 'For {{ contact.name | default: "you" }}' },
    );
    expect(html).toContain(
      'Hi {{ contact.name | default: "friend" }} &amp; welcome<br>{% if vars.company %}From {{ vars.company }}{% endif %}',
    );
    expect(html).toContain('href="https://example.com/?id={{ contact.id }}"');
    expect(html).toContain('<title>For {{ contact.name | default: "you" }}</title>');
  });

  it('turns the markdown-ish text into paragraphs, bold, italic and links', () => {
    const html = generateEmailHtml(
      documentWith({
        id: 'a',
        type: 'text',
        text: '**Bold** and *italic* with a [link](https://example.com/?a=1&b=2)\nnext line\n\nSecond snake_case_word paragraph',
        align: 'right',
      }),
    );
    expect(html).toContain('<strong>Bold</strong> and <em>italic</em> with a <a href="https://example.com/?a=1&amp;b=2"');
    expect(html).toContain('>link</a><br>next line</p>');
    expect(html).toMatch(/<p style="[^"]*text-align:right;">Second snake_case_word paragraph<\/p>/);
  });

  it('allows only http(s), mailto and tel links', () => {
    const html = generateEmailHtml(
      documentWith(
        { id: 'a', type: 'text', text: '[click](javascript:alert(1)) [mail](mailto:hi@example.com)', align: 'left' },
        { id: 'b', type: 'button', label: 'Bad', href: 'javascript:alert(1)', align: 'left', color: '' },
        { id: 'c', type: 'image', src: 'data:text/html,<script>', alt: '', href: '', width: 100, align: 'left' },
      ),
    );
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('data:text');
    expect(html).toContain('click');
    expect(html).toContain('<a href="mailto:hi@example.com"');
    expect(html).toContain('<a href="#" target="_blank"');
    expect(safeUrl(' https://example.com ')).toBe('https://example.com');
    expect(safeUrl('{{ vars.site }}/offer')).toBe('{{ vars.site }}/offer');
    expect(safeUrl('//example.com')).toBeNull();
  });

  it('stacks two columns on narrow screens and sizes images to the column', () => {
    const html = generateEmailHtml(
      documentWith({
        id: 'a',
        type: 'columns',
        columns: [
          { image: 'https://example.com/1.png', alt: 'One', heading: 'Left', text: 'Left text' },
          { image: '', alt: '', heading: 'Right', text: 'Right text' },
        ],
      }),
    );
    expect(html.match(/class="herald-column"/g)).toHaveLength(2);
    expect(html).toContain('.herald-column{display:block !important;width:100% !important;');
    // 600 minus two 32 px gutters minus the 16 px gap, halved.
    expect(html).toContain('width="260" style="display:block;width:100%;max-width:260px;');
    expect(html).toContain('>Left</h3>');
    expect(html).toContain('Right text</p>');
  });

  it('applies the global settings and never lets a setting inject CSS', () => {
    const settings = {
      background: '#000000',
      contentBackground: '#fafafa',
      width: 720,
      font: 'georgia',
      brandColor: '#ff0000;background:url(https://evil.example)',
      textColor: '#333',
      preheader: 'Sale <now>',
    };
    const html = generateEmailHtml({ version: 1, settings, blocks: [] } as unknown as BuilderDocument);
    expect(html).toContain('width="720"');
    expect(html).toContain('max-width:720px;background-color:#fafafa;');
    expect(html).toContain('bgcolor="#000000"');
    expect(html).toContain('Sale &lt;now&gt;</div>');
    expect(html).not.toContain('evil.example');
  });

  it('leaves out an image without an address and writes spacers and dividers as table cells', () => {
    const html = generateEmailHtml(
      documentWith(
        { id: 'a', type: 'image', src: '', alt: 'none', href: '', width: 100, align: 'center' },
        { id: 'b', type: 'spacer', height: 40 },
        { id: 'c', type: 'divider', color: '#cccccc', thickness: 2 },
      ),
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('<td height="40" style="height:40px;');
    expect(html).toContain('border-top:2px solid #cccccc;');
  });
});

describe('readDocument', () => {
  it('round-trips a document through JSON', () => {
    const document = documentWith(
      { id: 'h', type: 'heading', text: 'Title', level: 2, align: 'right' },
      { id: 'b', type: 'button', label: 'Go', href: 'https://example.com', align: 'left', color: '#00aa00' },
    );
    expect(readDocument(JSON.parse(JSON.stringify(document)))).toEqual(document);
  });

  it('drops unknown blocks, clamps numbers and falls back on bad settings', () => {
    const read = readDocument({
      settings: { width: 5000, font: 'comic', brandColor: 'red' },
      blocks: [
        { type: 'video', src: 'x' },
        { id: 's', type: 'spacer', height: -5 },
        { id: 'i', type: 'image', width: 400, src: 'https://example.com/a.png' },
        'junk',
      ],
    });
    expect(read.settings.width).toBe(LIMITS.width.max);
    expect(read.settings.font).toBe('system');
    expect(read.settings.brandColor).toBe('#1677ff');
    expect(read.blocks.map((block) => block.type)).toEqual(['spacer', 'image']);
    expect(read.blocks[0]).toMatchObject({ height: LIMITS.spacer.min });
    expect(read.blocks[1]).toMatchObject({ width: 100, alt: '', align: 'center' });
    expect(readDocument(null).blocks).toEqual([]);
  });
});

describe('helpers', () => {
  it('picks a readable label colour', () => {
    expect(readableOn('#1677ff')).toBe('#ffffff');
    expect(readableOn('#ffd60a')).toBe('#111827');
    expect(readableOn('#fff')).toBe('#111827');
  });

  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
