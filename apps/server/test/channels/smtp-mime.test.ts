import { describe, expect, it } from 'vitest';
import { newMessageId, writeMime } from '../../src/channels/smtp-mime.js';

const from = { name: 'Herald News', address: 'news@herald.test' };
const to = { name: 'Олена Ткач', address: 'olena@example.com' };

/** The parts of a multipart/alternative message: their headers and decoded bodies. */
function parts(raw: string): { headers: string; body: string }[] {
  const boundary = /boundary="([^"]+)"/.exec(raw)?.[1];
  if (!boundary) throw new Error('no boundary');
  expect(raw.endsWith(`--${boundary}--\r\n`)).toBe(true);
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const split = part.indexOf('\r\n\r\n');
      const body = part.slice(split + 4);
      return { headers: part.slice(0, split), body: Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8') };
    });
}

describe('writeMime', () => {
  it('writes both bodies, non-ASCII included, in base64 lines that SMTP carries unchanged', () => {
    // Deep into a long-running process: its counters (in ids and boundaries) have grown.
    for (let i = 0; i < 50_000; i++) newMessageId(from.address);
    const text = `Привіт, Олено! ${'Знижка 20% на все. '.repeat(40)}`;
    const html = `<p>Привіт, <b>Олено</b></p>${'<a href="https://herald.test/c">Купити</a>'.repeat(60)}`;
    const raw = writeMime({ from, to, subject: 'Новини тижня', text, html, messageId: newMessageId(from.address) }).toString(
      'latin1',
    );

    expect(raw).toMatch(/^To: =\?UTF-8\?B\?[^\r\n]+<olena@example\.com>\r$/m);
    expect(raw).toMatch(/^Subject: =\?UTF-8\?B\?/m);
    const decoded = parts(raw);
    expect(decoded.map((part) => /text\/(\w+)/.exec(part.headers)?.[1])).toEqual(['plain', 'html']);
    expect(decoded[0]!.body).toBe(text);
    expect(decoded[1]!.body).toBe(html);
    // Every line ends in CRLF, is at most 78 characters long and never starts with a dot (no stuffing needed).
    const lines = raw.split('\r\n');
    expect(lines.at(-1)).toBe('');
    for (const line of lines) {
      expect(line).not.toMatch(/[\r\n]/);
      expect(line.length).toBeLessThanOrEqual(78);
      expect(line.startsWith('.')).toBe(false);
    }
  });

  it('keeps line breaks in a subject or a name from adding headers', () => {
    const raw = writeMime({
      from,
      to: { name: 'Eve\r\nBcc: spy@example.com', address: 'eve@example.com' },
      subject: 'Hello\r\nBcc: evil@example.com\nX-Evil: 1\r\n\r\n<p>forged body</p>',
      text: 'Hi',
      messageId: '<1@herald.test>',
    }).toString('latin1');
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
    expect(head).not.toMatch(/^(Bcc|X-Evil):/im);
    expect(head).toContain('Subject: Hello Bcc: evil@example.com X-Evil: 1 <p>forged body</p>');
    expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe(`${Buffer.from('Hi').toString('base64')}\r\n`);
  });

  it('writes a single body without a multipart wrapper, ending on its last line', () => {
    const text = 'x'.repeat(57 * 3);
    const raw = writeMime({
      from,
      to: { address: 'reader@example.com' },
      subject: 'Hi',
      text,
      messageId: '<1@herald.test>',
    }).toString('latin1');

    expect(raw).not.toContain('multipart');
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(body.split('\r\n')).toEqual([
      ...Buffer.from(text)
        .toString('base64')
        .match(/.{1,76}/g)!,
      '',
    ]);
  });
});
