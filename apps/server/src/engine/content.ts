/** What each claimed message says: campaign messages render their template, API messages carry their own content. */
import { detail } from '@herald/shared/message-details';
import type { OutgoingMessage } from '../channels/types.js';
import type { ClaimedMessage } from './queue.js';

export type ResolvedContent = { message: OutgoingMessage } | { error: string };

/** How a message its own channel could not deliver goes through the other channel instead. */
export interface FallbackRoute {
  channel: 'EMAIL' | 'SMS';
  /** The contact's address on that channel. */
  recipient: string;
  content: OutgoingMessage;
  routeGroupId: number | null;
  routeConfigId: number | null;
}

export interface ContentResolver {
  resolve(messages: readonly ClaimedMessage[]): Promise<Map<number, ResolvedContent>>;
  /** The fallbacks of those messages that have one (campaign setting, contact's other address); others are absent. */
  fallback?(messages: readonly ClaimedMessage[]): Promise<Map<number, FallbackRoute>>;
}

interface InlinePayload {
  subject?: string;
  html?: string;
  text?: string;
  headers?: Record<string, string>;
}

/** Messages persisted with their final content in `payload` (test sends, inline API messages). */
export const payloadContent: ContentResolver = {
  async resolve(messages) {
    const resolved = new Map<number, ResolvedContent>();
    for (const message of messages) {
      if (!message.payload) {
        resolved.set(message.id, { error: detail('details.noContent') });
        continue;
      }
      const payload = JSON.parse(message.payload) as InlinePayload;
      resolved.set(
        message.id,
        message.channel === 'EMAIL'
          ? {
              message: {
                id: message.id,
                to: message.recipient,
                subject: payload.subject ?? '',
                ...(payload.html !== undefined ? { html: payload.html } : {}),
                ...(payload.text !== undefined ? { text: payload.text } : {}),
                ...(payload.headers ? { headers: payload.headers } : {}),
              },
            }
          : { message: { id: message.id, to: message.recipient, text: payload.text ?? '' } },
      );
    }
    return resolved;
  },
};
