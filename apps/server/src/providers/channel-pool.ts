/**
 * Live channel instances per config, built from the stored settings with secrets decrypted.
 * A config edit changes updated_at, which retires the old instance (its pool and binds close).
 */
import { findChannelDefinition } from '../channels/registry.js';
import type { Channel, ChannelContext, ChannelDefinition, ChannelSettings, DeliveryReport } from '../channels/types.js';
import type { Db } from '../db/database.js';
import { decryptSecret } from '../lib/crypto.js';
import type { ConfigRow } from './queries.js';
import * as q from './queries.js';

export type ReceiptHandler = (configId: number, report: DeliveryReport) => void;

export function readSecrets(row: Pick<ConfigRow, 'secrets'>, key: Buffer): Record<string, string> {
  return row.secrets ? (JSON.parse(decryptSecret(row.secrets, key)) as Record<string, string>) : {};
}

export class ChannelPool {
  private readonly live = new Map<number, { version: number; channel: Channel }>();
  private receiptHandler: ReceiptHandler | undefined;

  constructor(
    private readonly db: Db,
    private readonly secretKey: Buffer,
  ) {}

  /** The engine registers here for receipts from every channel. */
  onDeliveryReport(handler: ReceiptHandler): void {
    this.receiptHandler = handler;
  }

  contextFor(row: Pick<ConfigRow, 'id' | 'account_id' | 'category'>): ChannelContext {
    const configId = Number(row.id);
    return {
      onDeliveryReport: (report) => this.receiptHandler?.(configId, report),
      sandboxInbox: {
        store: (messages) =>
          q.insertSandboxMessages(
            this.db,
            messages.map((message) => ({
              account_id: Number(row.account_id),
              config_id: configId,
              category: row.category,
              recipient: message.recipient,
              subject: message.subject,
              body: message.body,
              provider_message_id: message.providerMessageId,
            })),
          ),
        setStatuses: (receipts) => q.setSandboxStatuses(this.db, receipts),
      },
    };
  }

  settingsOf(row: ConfigRow): ChannelSettings {
    return { ...(JSON.parse(row.settings) as ChannelSettings), ...readSecrets(row, this.secretKey) };
  }

  get(row: ConfigRow): Channel {
    const id = Number(row.id);
    const current = this.live.get(id);
    if (current && current.version === Number(row.updated_at)) return current.channel;
    if (current) void current.channel.close();
    const definition = this.definitionOf(row.type);
    const channel = definition.create(this.settingsOf(row), this.contextFor(row));
    this.live.set(id, { version: Number(row.updated_at), channel });
    return channel;
  }

  /** A throw-away instance for "test connection" of settings that may not be saved yet. */
  createDetached(
    definition: ChannelDefinition,
    settings: ChannelSettings,
    row: Pick<ConfigRow, 'id' | 'account_id' | 'category'>,
  ) {
    return definition.create(settings, this.contextFor(row));
  }

  async forget(configId: number): Promise<void> {
    const current = this.live.get(configId);
    this.live.delete(configId);
    if (current) await current.channel.close();
  }

  async closeAll(): Promise<void> {
    const channels = [...this.live.values()].map((entry) => entry.channel);
    this.live.clear();
    await Promise.allSettled(channels.map((channel) => channel.close()));
  }

  private definitionOf(type: string): ChannelDefinition {
    const definition = findChannelDefinition(type);
    if (!definition) throw new Error(`unknown provider type ${type}`);
    return definition;
  }
}
