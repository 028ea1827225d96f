/**
 * The load the SMTP benchmarks send: a ~7.5 KB HTML newsletter, either as fields composed per message or as
 * raw MIME built per recipient from a template composed once (Herald's campaign fast path).
 */
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Channel, OutgoingEmail } from '../../apps/server/src/channels/types.js';

export const SENDER = 'news@herald.test';
export const SUBJECT = 'Herald weekly: what changed this week';

function newsletterHtml(): string {
  const story = (index: number) =>
    `<tr><td style="padding:16px 24px;font-family:Arial,sans-serif;font-size:15px;line-height:22px;color:#333333">` +
    `<h2 style="margin:0 0 8px;font-size:19px;color:#1a1a1a">Story ${index}: a café for every campaign</h2>` +
    `<p style="margin:0 0 12px">Campaign ${index} reached its audience in record time. Read how the team planned the ` +
    `send, picked the segments and kept the bounce rate under half a percent.</p>` +
    `<a href="https://herald.test/stories/${index}?utm_source=newsletter" style="color:#0b63ce">Read more</a></td></tr>\n`;
  const head = '<!doctype html><html><head><meta charset="utf-8"><title>Herald weekly</title></head><body style="margin:0">\n';
  const table =
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:640px;margin:0 auto">\n';
  let html = head + table;
  for (let index = 1; html.length < 7_300; index += 1) html += story(index);
  return `${html}</table><p style="font-size:12px;color:#777">You get this because you subscribed.</p></body></html>\n`;
}

export const NEWSLETTER_HTML = newsletterHtml();

export function recipient(index: number): string {
  return `reader${index}@example.com`;
}

/** The MIME of the newsletter without To and Message-ID, composed once; each recipient's message prepends those. */
export async function rawTemplate(): Promise<Buffer> {
  const composed = await new MailComposer({ from: `Herald News <${SENDER}>`, subject: SUBJECT, html: NEWSLETTER_HTML })
    .compile()
    .build();
  return Buffer.from(composed.toString('binary').replace(/^Message-ID: .*\r\n/im, ''), 'binary');
}

export function rawMessage(template: Buffer, index: number): Buffer {
  return Buffer.concat([Buffer.from(`To: ${recipient(index)}\r\nMessage-ID: <bench-${index}@herald.test>\r\n`), template]);
}

export type MessageForm = 'composed' | 'raw';

export function newsletterEmail(form: MessageForm, template: Buffer, index: number): OutgoingEmail {
  const email: OutgoingEmail = { id: index, to: recipient(index), subject: SUBJECT };
  return form === 'raw' ? { ...email, raw: rawMessage(template, index) } : { ...email, html: NEWSLETTER_HTML };
}

/** Sends messages first..first+count-1 through the channel one batch after the other, as a dispatch worker does. */
export async function sendInBatches(
  channel: Channel,
  form: MessageForm,
  template: Buffer,
  first: number,
  count: number,
  batchSize: number,
): Promise<number> {
  let accepted = 0;
  for (let start = first; start < first + count; start += batchSize) {
    const size = Math.min(batchSize, first + count - start);
    const batch = Array.from({ length: size }, (_, offset) => newsletterEmail(form, template, start + offset));
    for (const result of await channel.send(batch)) if (result.accepted) accepted += 1;
  }
  return accepted;
}
