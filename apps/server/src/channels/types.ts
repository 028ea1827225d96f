/**
 * The one small interface every provider channel implements (ARCHITECTURE.md, Sending):
 * send a batch, verify the connection, read a balance where the vendor has one, say how many messages it works on at once.
 * Adding a provider is one file exporting a ChannelDefinition, plus its test.
 */
import type { ChannelCategory } from '@herald/shared';

/** One form field of a provider type; the console renders the create/edit form from these. */
export interface ChannelField {
  name: string;
  /** i18n key of the label in the console's `providers` namespace. */
  label: string;
  kind: 'string' | 'number' | 'boolean' | 'select' | 'secret' | 'textarea' | 'email' | 'url' | 'json';
  required?: boolean;
  default?: string | number | boolean;
  options?: readonly string[];
  min?: number;
  max?: number;
  /** Secrets are encrypted at rest and never returned by the API. */
  secret?: boolean;
}

export interface OutgoingEmail {
  /** Herald's message id; results refer to it. */
  id: number;
  to: string;
  toName?: string;
  subject: string;
  html?: string;
  text?: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
  /** Pre-built RFC 5322 message; when set it is sent as is (fast path for campaigns). */
  raw?: Buffer | string;
  /** The envelope sender (Return-Path): the account's bounce address, so bounces come back to Herald. */
  returnPath?: string;
}

export interface OutgoingSms {
  id: number;
  /** E.164 phone number. */
  to: string;
  text: string;
  /** Parts of this text a provider already took in an earlier attempt: only the others are sent again. */
  partsSent?: SmsPartsSent;
}

/** A concatenated SMS part-way through: its concatenation reference and each part's provider id (null: not taken). */
export interface SmsPartsSent {
  reference: number;
  ids: (string | null)[];
}

export type OutgoingMessage = OutgoingEmail | OutgoingSms;

export interface SendResult {
  id: number;
  /** True once the provider accepted the message. */
  accepted: boolean;
  providerMessageId?: string;
  /** Number of parts the provider billed (SMS). */
  parts?: number;
  error?: string;
  /** A failure worth retrying later or on another config (connection lost, throttled, 4xx SMTP). */
  transient?: boolean;
  /**
   * The failure concerns this recipient alone (an SMTP server refusing RCPT TO: greylisting, a full mailbox), not the
   * provider: it is retried like any other, but does not count against the config's health.
   */
  recipientFault?: boolean;
  /** A concatenated SMS some of whose parts the provider took before it refused another: what a retry must not resend. */
  partsSent?: SmsPartsSent;
}

export interface VerifyResult {
  ok: boolean;
  /** The precise cause on failure, e.g. "535 Authentication failed" or "ECONNREFUSED 127.0.0.1:2525". */
  message: string;
}

export interface Balance {
  amount: number;
  currency: string;
}

/** A delivery receipt from a provider (SMPP deliver_sm, HTTP callback), handed to the engine. */
export interface DeliveryReport {
  providerMessageId: string;
  status: 'delivered' | 'undelivered' | 'unknown';
  /** The provider's own words, e.g. "stat:UNDELIV err:001". */
  providerStatus: string;
  at: number;
}

/** Where sandbox channels keep what they "send", bound to one config of one account. */
export interface SandboxInbox {
  /** The messages of one send call, in one statement. */
  store(messages: { recipient: string; subject: string | null; body: string; providerMessageId: string }[]): Promise<void>;
  /** The receipts due at one moment, in one transaction. */
  setStatuses(receipts: { providerMessageId: string; status: 'delivered' | 'undelivered' }[]): Promise<void>;
}

export interface ChannelContext {
  sandboxInbox?: SandboxInbox;
  /** Receipts arrive asynchronously; the engine subscribes here. */
  onDeliveryReport?: (report: DeliveryReport) => void;
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export interface Channel {
  /**
   * How many messages the channel has with the provider at once (SMTP connections, SMPP window, HTTP requests in
   * flight): the engine never hands it fewer per send call, or a slow provider would be left partly idle.
   */
  readonly parallelism: number;
  send(messages: OutgoingMessage[]): Promise<SendResult[]>;
  verify(): Promise<VerifyResult>;
  balance?(): Promise<Balance | null>;
  close(): Promise<void>;
}

/** Settings are the config's fields with secrets already decrypted. */
export type ChannelSettings = Record<string, unknown>;

export interface ChannelDefinition {
  type: string;
  category: ChannelCategory;
  fields: readonly ChannelField[];
  create(settings: ChannelSettings, context: ChannelContext): Channel;
}

/** What one SMS part costs at the provider, in its balance's currency: the campaign wizard estimates a campaign's cost with it. */
export const PRICE_PER_PART_FIELD: ChannelField = {
  name: 'pricePerPart',
  label: 'providers.field.pricePerPart',
  kind: 'number',
  min: 0,
  max: 1000,
};

/** Verify calls give up after this long (issue: "within 5 s"). */
export const VERIFY_TIMEOUT_MS = 5000;
