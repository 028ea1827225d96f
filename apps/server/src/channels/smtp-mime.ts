/**
 * The MIME of an ordinary e-mail (text and/or HTML, a few headers) written straight into one buffer: nodemailer's
 * composer streams every part through a chain of transforms, which cost most of the client's CPU per campaign
 * message (BENCHMARKS.md). Anything this does not cover (non-ASCII addresses) is left to nodemailer.
 */
import { randomBytes } from 'node:crypto';
import { encodeWords, foldLines, isPlainText } from 'nodemailer/lib/mime-funcs';

export interface MimeAddress {
  name?: string | undefined;
  address: string;
}

export interface MimeEmail {
  from: MimeAddress;
  to: MimeAddress;
  replyTo?: string | undefined;
  subject: string;
  html?: string | undefined;
  text?: string | undefined;
  headers?: Record<string, string> | undefined;
  messageId: string;
}

const ASCII_ADDRESS = /^[\x21-\x7e]+@[\x21-\x7e]+$/;
/** RFC 5322 specials: a display name holding any of them is quoted. */
const SPECIALS = /[()<>[\]:;@\\,."]/;
const LINE = 76;
/** Random per process, then counted: unique ids and boundaries without a random draw per message. */
const PROCESS_TAG = randomBytes(9).toString('hex');
let sequence = 0;

/** Whether the fast path can write this message; otherwise nodemailer composes it. */
export function canWriteMime(email: Pick<MimeEmail, 'from' | 'to' | 'replyTo'>): boolean {
  return (
    ASCII_ADDRESS.test(email.from.address) &&
    ASCII_ADDRESS.test(email.to.address) &&
    (email.replyTo === undefined || ASCII_ADDRESS.test(email.replyTo))
  );
}

function headerText(value: string): string {
  return isPlainText(value) ? value : encodeWords(value, 'B', 52);
}

function formatAddress({ name, address }: MimeAddress): string {
  if (!name) return address;
  if (!isPlainText(name)) return `${encodeWords(name, 'B', 52)} <${address}>`;
  return SPECIALS.test(name) ? `"${name.replace(/(["\\])/g, '\\$1')}" <${address}>` : `${name} <${address}>`;
}

/** One header; line breaks in the value become spaces, or a value from outside could add headers of its own. */
function header(name: string, value: string): string {
  return `${foldLines(`${name}: ${value.replace(/[\r\n]+/g, ' ')}`, LINE)}\r\n`;
}

const CRLF = 0x0d0a;

/** A part's headers and its content in base64 lines of 76, written into `out` at `offset`; answers the new offset. */
function writePart(out: Buffer, offset: number, head: string, encoded: Buffer): number {
  let at = offset + out.write(head, offset, 'latin1');
  for (let i = 0; i < encoded.length; i += LINE) {
    at += encoded.copy(out, at, i, Math.min(i + LINE, encoded.length));
    at = out.writeUInt16BE(CRLF, at);
  }
  return at;
}

function partHead(type: 'plain' | 'html'): string {
  return `Content-Type: text/${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n`;
}

/** A Message-ID under the sender's domain. */
export function newMessageId(senderAddress: string): string {
  sequence += 1;
  return `<${Date.now().toString(36)}.${sequence.toString(36)}.${PROCESS_TAG}@${senderAddress.slice(senderAddress.lastIndexOf('@') + 1)}>`;
}

/** The whole message in one buffer, each part encoded natively and copied line by line: no string per line. */
export function writeMime(email: MimeEmail, date = new Date()): Buffer {
  let head =
    header('From', formatAddress(email.from)) +
    header('To', formatAddress(email.to)) +
    (email.replyTo ? header('Reply-To', email.replyTo) : '') +
    header('Subject', headerText(email.subject)) +
    header('Message-ID', email.messageId) +
    header('Date', date.toUTCString().replace(/GMT/, '+0000')) +
    'MIME-Version: 1.0\r\n';
  for (const [name, value] of Object.entries(email.headers ?? {})) head += header(name, headerText(value));
  const parts: { head: string; encoded: Buffer }[] = [];
  if (email.text) parts.push({ head: partHead('plain'), encoded: base64(email.text) });
  if (email.html) parts.push({ head: partHead('html'), encoded: base64(email.html) });
  if (parts.length === 0) parts.push({ head: partHead('plain'), encoded: Buffer.alloc(0) });
  let closing = '';
  if (parts.length > 1) {
    sequence += 1;
    const boundary = `--_herald_${PROCESS_TAG}_${sequence.toString(36)}`;
    // Folded: the boundary grows with the process's message count, and the line must stay within 78 characters.
    head += `Content-Type: multipart/alternative;\r\n boundary="${boundary}"\r\n\r\n`;
    for (const part of parts) part.head = `--${boundary}\r\n${part.head}`;
    closing = `--${boundary}--\r\n`;
  }
  let size = head.length + closing.length;
  for (const part of parts) size += part.head.length + part.encoded.length + Math.ceil(part.encoded.length / LINE) * 2;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0, 'latin1');
  for (const part of parts) at = writePart(out, at, part.head, part.encoded);
  out.write(closing, at, 'latin1');
  return out;
}

function base64(content: string): Buffer {
  return Buffer.from(Buffer.from(content, 'utf8').toString('base64'), 'latin1');
}
