/**
 * Sandbox channels keep messages inside Herald (the console's inbox screen) and simulate delivery
 * receipts, so a new account can run a whole campaign with no outside service.
 */

import { randomUUID } from 'node:crypto';
import type { ChannelCategory } from '@herald/shared';
import { detail } from '@herald/shared/message-details';
import {
  type Channel,
  type ChannelContext,
  type ChannelDefinition,
  type ChannelField,
  type ChannelSettings,
  type OutgoingMessage,
  PRICE_PER_PART_FIELD,
  type SendResult,
} from './types.js';

const SIMULATION_FIELDS: readonly ChannelField[] = [
  { name: 'deliveredShare', label: 'providers.field.deliveredShare', kind: 'number', min: 0, max: 100, default: 95 },
  { name: 'receiptDelaySeconds', label: 'providers.field.receiptDelaySeconds', kind: 'number', min: 0, max: 3600, default: 2 },
  { name: 'balance', label: 'providers.field.sandboxBalance', kind: 'number', min: 0, default: 1000 },
];

function createSandbox(category: ChannelCategory, settings: ChannelSettings, context: ChannelContext): Channel {
  const inbox = context.sandboxInbox;
  if (!inbox) throw new Error('sandbox channels need an inbox');
  const deliveredShare = Number(settings.deliveredShare ?? 95) / 100;
  const delayMs = Number(settings.receiptDelaySeconds ?? 2) * 1000;
  const timers = new Set<NodeJS.Timeout>();

  /** One timer per send call: its receipts are written in one transaction, then handed to the engine. */
  function scheduleReceipts(providerMessageIds: string[]): void {
    const receipts = providerMessageIds.map((providerMessageId) => ({
      providerMessageId,
      status: Math.random() < deliveredShare ? ('delivered' as const) : ('undelivered' as const),
    }));
    const timer = setTimeout(() => {
      timers.delete(timer);
      inbox!.setStatuses(receipts).then(
        () => {
          for (const { providerMessageId, status } of receipts)
            context.onDeliveryReport?.({
              providerMessageId,
              status,
              providerStatus: detail(status === 'delivered' ? 'details.sandboxDelivered' : 'details.sandboxFailed'),
              at: Date.now(),
            });
        },
        (error: unknown) => context.log?.warn({ err: error }, 'sandbox receipts were not written'),
      );
    }, delayMs);
    timers.add(timer);
  }

  return {
    // A send call is one insert, whatever its size.
    parallelism: Number.POSITIVE_INFINITY,
    async send(messages: OutgoingMessage[]): Promise<SendResult[]> {
      const stored = messages.map((message) => {
        const email = category === 'EMAIL' && 'subject' in message ? message : null;
        return {
          recipient: message.to,
          subject: email ? email.subject : null,
          body: email ? (email.html ?? email.text ?? String(email.raw ?? '')) : 'text' in message ? (message.text ?? '') : '',
          providerMessageId: `sandbox-${randomUUID()}`,
        };
      });
      await inbox.store(stored);
      scheduleReceipts(stored.map((message) => message.providerMessageId));
      return messages.map((message, i) => ({
        id: message.id,
        accepted: true,
        providerMessageId: stored[i]!.providerMessageId,
        parts: 1,
      }));
    },
    async verify() {
      return { ok: true, message: 'sandbox: messages stay inside Herald' };
    },
    async balance() {
      return { amount: Number(settings.balance ?? 1000), currency: 'SBX' };
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export const sandboxEmailChannel: ChannelDefinition = {
  type: 'sandbox-email',
  category: 'EMAIL',
  fields: [
    { name: 'senderName', label: 'providers.field.senderName', kind: 'string', default: 'Herald Sandbox' },
    { name: 'senderEmail', label: 'providers.field.senderEmail', kind: 'email', required: true, default: 'sandbox@herald.local' },
    ...SIMULATION_FIELDS,
  ],
  create: (settings, context) => createSandbox('EMAIL', settings, context),
};

export const sandboxSmsChannel: ChannelDefinition = {
  type: 'sandbox-sms',
  category: 'SMS',
  fields: [
    { name: 'sender', label: 'providers.field.sender', kind: 'string', required: true, default: 'Herald' },
    ...SIMULATION_FIELDS,
    PRICE_PER_PART_FIELD,
  ],
  create: (settings, context) => createSandbox('SMS', settings, context),
};
