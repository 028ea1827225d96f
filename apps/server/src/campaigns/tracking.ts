/**
 * Signed links in campaign e-mail: an open pixel (→ read), click redirects, and unsubscribe links with the
 * RFC 8058 one-click headers. Every link carries an HMAC of what it does, so nobody can forge one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OutgoingEmail } from '../channels/types.js';

export type LinkKind = 'open' | 'click' | 'target' | 'unsubscribe' | 'bounce';

/** Distinct click targets whose signatures are kept: a campaign's links are the same for most of its recipients. */
const TARGET_SIGNATURES_KEPT = 10_000;

export class Tracking {
  private readonly key: Buffer;
  private readonly targetSignatures = new Map<string, string>();

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

  /**
   * A click link's signature is the message's click signature followed by its target's: a newsletter's dozens of links
   * cost one HMAC per message, not one each. Either half alone is worthless: only a target some signed e-mail links to
   * can be redirected to, and only by the link of a message someone received.
   */
  clickUrl(messageId: number, target: string, messageSignature = this.sign('click', messageId)): string {
    return `${this.publicUrl}/t/c/${messageId}/${messageSignature}${this.targetSignature(target)}?u=${encodeURIComponent(target)}`;
  }

  verifyClick(messageId: number, signature: string, target: string): boolean {
    const expected = Buffer.from(this.sign('click', messageId) + this.targetSignature(target));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private targetSignature(target: string): string {
    let signature = this.targetSignatures.get(target);
    if (signature === undefined) {
      signature = this.sign('target', 0, target);
      if (this.targetSignatures.size >= TARGET_SIGNATURES_KEPT) this.targetSignatures.clear();
      this.targetSignatures.set(target, signature);
    }
    return signature;
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
    const clickSignature = this.sign('click', email.id);
    const tracked = email.html.replace(
      /(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi,
      (match, start: string, quote: string, url: string) => {
        // Herald's own links (the unsubscribe link a template prints) are not clicks to count.
        if (url.startsWith(`${this.publicUrl}/t/`)) return match;
        const link = this.clickUrl(email.id, url.replaceAll('&amp;', '&'), clickSignature);
        return `${start}${quote}${link.replaceAll('&', '&amp;')}${quote}`;
      },
    );
    const pixel = `<img src="${this.openUrl(email.id)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
    const html = /<\/body>/i.test(tracked) ? tracked.replace(/<\/body>/i, `${pixel}</body>`) : `${tracked}${pixel}`;
    return { ...email, html, headers };
  }
}
