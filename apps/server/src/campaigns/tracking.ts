/**
 * Signed links in campaign e-mail: an open pixel (→ read), click redirects, and unsubscribe links with the
 * RFC 8058 one-click headers. Every link carries an HMAC of what it does, so nobody can forge one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OutgoingEmail } from '../channels/types.js';

export type LinkKind = 'open' | 'click' | 'unsubscribe' | 'bounce';

export class Tracking {
  private readonly key: Buffer;

  constructor(
    secret: Buffer,
    private readonly publicUrl: string,
  ) {
    // A key of its own, so a tracking signature never doubles as anything else signed with the secret.
    this.key = createHmac('sha256', secret).update('herald tracking links').digest();
  }

  sign(kind: LinkKind, messageId: number, extra = ''): string {
    return createHmac('sha256', this.key).update(`${kind}:${messageId}:${extra}`).digest().subarray(0, 16).toString('base64url');
  }

  verify(kind: LinkKind, messageId: number, signature: string, extra = ''): boolean {
    const expected = Buffer.from(this.sign(kind, messageId, extra));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  openUrl(messageId: number): string {
    return `${this.publicUrl}/t/o/${messageId}/${this.sign('open', messageId)}`;
  }

  clickUrl(messageId: number, target: string): string {
    return `${this.publicUrl}/t/c/${messageId}/${this.sign('click', messageId, target)}?u=${encodeURIComponent(target)}`;
  }

  unsubscribeUrl(messageId: number): string {
    return `${this.publicUrl}/t/u/${messageId}/${this.sign('unsubscribe', messageId)}`;
  }

  /** Identifies a message in bounces: MTAs quote the original headers in their delivery reports. */
  messageHeader(messageId: number): string {
    return `${messageId}.${this.sign('bounce', messageId)}`;
  }

  /** Adds the unsubscribe headers, the open pixel and click tracking to a rendered campaign e-mail. */
  decorate(email: OutgoingEmail): OutgoingEmail {
    const unsubscribe = this.unsubscribeUrl(email.id);
    const headers = {
      ...email.headers,
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'X-Herald-Message': this.messageHeader(email.id),
    };
    if (email.html === undefined) return { ...email, headers };
    const tracked = email.html.replace(
      /(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi,
      (_match, start: string, quote: string, url: string) => {
        return `${start}${quote}${this.clickUrl(email.id, url.replaceAll('&amp;', '&')).replaceAll('&', '&amp;')}${quote}`;
      },
    );
    const pixel = `<img src="${this.openUrl(email.id)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
    const html = /<\/body>/i.test(tracked) ? tracked.replace(/<\/body>/i, `${pixel}</body>`) : `${tracked}${pixel}`;
    return { ...email, html, headers };
  }
}
