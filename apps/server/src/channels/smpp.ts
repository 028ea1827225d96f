/**
 * SMPP 3.4 channel: one bind_transceiver session per config that reconnects by itself, windowed submit_sm
 * with UDH concatenation for long texts, and delivery receipts read from deliver_sm.
 */
import { encodeGsm7, isGsm7, splitSms } from '@herald/shared';
import smpp from 'smpp';
import {
  type Channel,
  type ChannelContext,
  type ChannelDefinition,
  type ChannelSettings,
  type DeliveryReport,
  type OutgoingMessage,
  type OutgoingSms,
  PRICE_PER_PART_FIELD,
  type SendResult,
  VERIFY_TIMEOUT_MS,
  type VerifyResult,
} from './types.js';

const ENQUIRE_LINK_MS = 30_000;
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
/** A connect, bind, submit_sm or enquire_link unanswered this long means the SMSC is stuck: the session is dropped. */
const RESPONSE_TIMEOUT_MS = 10_000;
/** How long send() waits for a (re)bind before failing its batch as transient, so the engine can fail over. */
const BIND_WAIT_MS = VERIFY_TIMEOUT_MS;
/** Ids of second and later parts remembered for mapping their receipts to the message; the oldest go first. */
const MAX_PART_IDS = 100_000;
/** ESME_RSYSERR, ESME_RMSGQFUL and ESME_RTHROTTLED: the SMSC is failing or busy, the same message can succeed later. */
const TRANSIENT_STATUSES = new Set([0x08, 0x14, 0x58]);
/** ESME_RINVDSTADR, ESME_RINVDSTTON, ESME_RINVDSTNPI: the number is at fault, and another SMSC would refuse it too. */
const RECIPIENT_STATUSES = new Set([0x0b, 0x50, 0x51]);
/** Submitted parts kept at the head of the queue before it is compacted. */
const QUEUE_COMPACT_AT = 1024;
const ESM_CLASS_UDHI = 0x40;
/** The UDH of a concatenated part: IEI 00 (8-bit reference), length 3, then ref, total, sequence. */
const UDH_CONCAT_HEADER = [0x05, 0x00, 0x03];

const SENDER_TYPES = {
  alphanumeric: { ton: 5, npi: 0 },
  shortcode: { ton: 3, npi: 0 },
  longnumber: { ton: 1, npi: 1 },
} as const;
type SenderType = keyof typeof SENDER_TYPES;

/** message_state TLV values as the abbreviations receipts use in their text. */
const MESSAGE_STATES: Record<number, string> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};
const FINAL_STATES: Record<string, DeliveryReport['status']> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undelivered',
  EXPIRED: 'undelivered',
  REJECTD: 'undelivered',
  DELETED: 'undelivered',
};

const STATUS_NAMES = new Map(Object.entries(smpp.errors).map(([name, code]) => [code, name]));

/** "ESME_RINVPASWD (0x0E)": the name operators search vendor docs for, and the code in case the name is unknown. */
export function describeStatus(status: number): string {
  return `${STATUS_NAMES.get(status) ?? 'status'} (0x${status.toString(16).toUpperCase().padStart(2, '0')})`;
}

/** Lifetime as an SMPP relative time "YYMMDDhhmmss000R" (days, hours and minutes are enough). */
export function relativeValidity(minutes: number): string {
  const total = Math.round(minutes);
  const two = (value: number) => String(value).padStart(2, '0');
  return `0000${two(Math.floor(total / 1440))}${two(Math.floor((total % 1440) / 60))}${two(total % 60)}00000R`;
}

export interface ReceiptTlvs {
  receiptedMessageId?: string;
  messageState?: number;
}

/**
 * A receipt from a deliver_sm: the SMPP appendix B text "id:X sub:001 dlvrd:001 submit date:… done date:… stat:DELIVRD
 * err:000 text:…", with the receipted_message_id and message_state TLVs taking precedence when the SMSC sends them.
 * Null when it is no receipt (an inbound SMS).
 */
export function parseDeliveryReceipt(text: string, tlvs: ReceiptTlvs = {}, at = Date.now()): DeliveryReport | null {
  // The quoted text after "text:" is the message's own start, which may contain anything.
  const head = text.split(/(?:^|\s)text:/i)[0] ?? '';
  const id = tlvs.receiptedMessageId || /(?:^|\s)id:(\S+)/i.exec(head)?.[1];
  const stateName = tlvs.messageState === undefined ? undefined : MESSAGE_STATES[tlvs.messageState];
  const stat = stateName ?? /(?:^|\s)stat:(\S+)/i.exec(head)?.[1]?.toUpperCase();
  if (!id || !stat) return null;
  const err = /(?:^|\s)err:(\S+)/i.exec(head)?.[1];
  return {
    providerMessageId: id,
    status: FINAL_STATES[stat] ?? 'unknown',
    providerStatus: err ? `stat:${stat} err:${err}` : `stat:${stat}`,
    at,
  };
}

interface SmppSettings {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType: string;
  sender: string;
  senderType: SenderType;
  windowSize: number;
  messagesPerSecond?: number;
  lifetimeMinutes?: number;
  flash: boolean;
  registeredDelivery: boolean;
}

function text(settings: ChannelSettings, name: string): string {
  const value = settings[name];
  return value === undefined || value === null ? '' : String(value).trim();
}

function positive(settings: ChannelSettings, name: string): number | undefined {
  const value = Number(text(settings, name) || Number.NaN);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function flag(settings: ChannelSettings, name: string, fallback: boolean): boolean {
  const value = settings[name];
  if (value === undefined || value === null || value === '') return fallback;
  return value === true || value === 'true' || value === 1 || value === '1';
}

function readSettings(settings: ChannelSettings): SmppSettings {
  const required = (name: string) => {
    const value = text(settings, name);
    if (!value) throw new Error(`smpp: ${name} is required`);
    return value;
  };
  const senderType = text(settings, 'senderType') || 'alphanumeric';
  if (!(senderType in SENDER_TYPES)) throw new Error(`smpp: unknown senderType ${senderType}`);
  return {
    host: required('host'),
    port: positive(settings, 'port') ?? 2775,
    systemId: required('systemId'),
    password: text(settings, 'password'),
    systemType: text(settings, 'systemType'),
    sender: required('sender'),
    senderType: senderType as SenderType,
    windowSize: Math.floor(positive(settings, 'windowSize') ?? 50),
    messagesPerSecond: positive(settings, 'messagesPerSecond'),
    lifetimeMinutes: positive(settings, 'lifetimeMinutes'),
    flash: flag(settings, 'flash', false),
    registeredDelivery: flag(settings, 'registeredDelivery', true),
  };
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** The text of a deliver_sm, whichever field and form the smpp package decoded it into. */
function messageText(value: unknown): string {
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'message' in value) return messageText(value.message);
  return '';
}

/** Unpacked GSM-7 septets (data_coding 0x00 family) or big-endian UTF-16 (0x08 family). */
function encodeText(text: string, gsm: boolean): Buffer {
  if (!gsm) return Buffer.from(text, 'utf16le').swap16();
  const septets = encodeGsm7(text);
  return Buffer.from(septets.buffer, septets.byteOffset, septets.length);
}

/** Overrides for tests; production uses the defaults. */
export interface SmppTimings {
  responseTimeoutMs?: number;
  bindWaitMs?: number;
  enquireLinkMs?: number;
}

interface PendingMessage {
  id: number;
  /** Each part's provider id, by part; null until the provider takes it. */
  ids: (string | null)[];
  /** The concatenation reference of a multi-part text. */
  reference: number | null;
  parts: number;
  accepted: number;
  remaining: number;
  failure?: { error: string; transient: boolean; recipientFault?: boolean };
  resolve(result: SendResult): void;
}

interface SplitText {
  fields: Record<string, unknown>[];
  reference: number | null;
  ids: (string | null)[];
}

interface Part {
  message: PendingMessage;
  index: number;
  fields: Record<string, unknown>;
  sentAt: number;
}

class SmppChannel implements Channel {
  private readonly settings: SmppSettings;
  private readonly responseTimeoutMs: number;
  private readonly bindWaitMs: number;
  private readonly enquireLinkMs: number;
  private readonly source: { ton: number; npi: number; addr: string };
  private readonly validityPeriod: string;
  private session: smpp.Session | undefined;
  private sessionStartedAt = 0;
  private sessionError: string | undefined;
  private connected = false;
  private bound = false;
  private closed = false;
  private lastError: string | undefined;
  private backoffMs = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private pumpTimer: NodeJS.Timeout | undefined;
  private readonly tickTimer: NodeJS.Timeout;
  private lastEnquireAt = 0;
  private enquireSentAt: number | undefined;
  private readonly waiters = new Set<(bound: boolean) => void>();
  private queue: Part[] = [];
  private head = 0;
  /** Submitted parts by sequence number, in send order, so the first is the oldest unanswered. */
  private readonly inFlight = new Map<number, Part>();
  private readonly partIds = new Map<string, string>();
  /**
   * A multi-part message's parts still awaiting their delivered receipt, by its first part's id; 0 once one part was
   * reported undelivered, so the later parts' receipts change nothing.
   */
  private readonly partsAwaited = new Map<string, number>();
  private concatRef = 0;
  private corked = false;
  private tokens: number;
  private tokensAt = Date.now();

  constructor(
    settings: ChannelSettings,
    private readonly context: ChannelContext,
    timings: SmppTimings = {},
  ) {
    this.settings = readSettings(settings);
    this.responseTimeoutMs = timings.responseTimeoutMs ?? RESPONSE_TIMEOUT_MS;
    this.bindWaitMs = timings.bindWaitMs ?? BIND_WAIT_MS;
    this.enquireLinkMs = timings.enquireLinkMs ?? ENQUIRE_LINK_MS;
    const { ton, npi } = SENDER_TYPES[this.settings.senderType];
    const sender = this.settings.sender;
    this.source = { ton, npi, addr: this.settings.senderType === 'longnumber' ? sender.replace(/^\+/, '') : sender };
    this.validityPeriod = this.settings.lifetimeMinutes ? relativeValidity(this.settings.lifetimeMinutes) : '';
    // A bucket of a tenth of a second's worth keeps a configured rate without one timer per message.
    this.tokens = this.bucketSize();
    this.tickTimer = setInterval(() => this.tick(), Math.min(1000, this.responseTimeoutMs / 4));
    this.tickTimer.unref();
    this.connect();
  }

  get parallelism(): number {
    return this.settings.windowSize;
  }

  async send(messages: OutgoingMessage[]): Promise<SendResult[]> {
    const prepared: { sms: OutgoingSms; split: SplitText }[] = [];
    const immediate = new Map<number, SendResult>();
    for (const message of messages) {
      if ('subject' in message) {
        immediate.set(message.id, { id: message.id, accepted: false, error: 'smpp sends SMS only' });
      } else if (message.text === '') {
        immediate.set(message.id, { id: message.id, accepted: false, error: 'empty text' });
      } else {
        prepared.push({ sms: message, split: this.partFields(message) });
      }
    }
    if (prepared.length > 0 && !(await this.waitForBind())) {
      const error = `not bound to ${this.target()}: ${this.lastError ?? 'connecting'}`;
      for (const { sms } of prepared) immediate.set(sms.id, { id: sms.id, accepted: false, error, transient: true });
      prepared.length = 0;
    }
    const pending = prepared.map(
      ({ sms, split: { fields, reference, ids } }) =>
        new Promise<SendResult>((resolve) => {
          const message: PendingMessage = {
            id: sms.id,
            ids,
            reference,
            parts: fields.length,
            accepted: 0,
            remaining: ids.filter((id) => id === null).length,
            resolve,
          };
          fields.forEach((partFields, index) => {
            if (ids[index] === null) this.queue.push({ message, index, fields: partFields, sentAt: 0 });
          });
        }),
    );
    this.pump();
    const sent = new Map((await Promise.all(pending)).map((result) => [result.id, result]));
    return messages.map((message) => immediate.get(message.id) ?? sent.get(message.id)!);
  }

  verify(): Promise<VerifyResult> {
    return verifyBind(this.settings, VERIFY_TIMEOUT_MS);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.tickTimer);
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.pumpTimer);
    const session = this.session;
    if (!session) return;
    if (this.bound) {
      this.sessionError = 'channel closed';
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(1000, this.responseTimeoutMs));
        session.unbind({}, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (this.session !== session) return;
    const closed = new Promise((resolve) => session.once('close', resolve));
    this.sessionClosed(session, 'channel closed');
    session.destroy();
    await closed;
  }

  private target(): string {
    return `${this.settings.host}:${this.settings.port}`;
  }

  private bucketSize(): number {
    return Math.max(1, (this.settings.messagesPerSecond ?? 0) / 10);
  }

  /**
   * One submit_sm field set per part; parts of a long text share a concatenation reference. A text some of whose
   * parts were taken before keeps their reference, so the handset joins the parts sent now to those.
   */
  private partFields(sms: OutgoingSms): SplitText {
    const gsm = isGsm7(sms.text);
    const dataCoding = (gsm ? 0x00 : 0x08) | (this.settings.flash ? 0x10 : 0x00);
    const destination = sms.to.startsWith('+') ? sms.to.slice(1) : sms.to;
    const chunks = splitSms(sms.text);
    if (chunks.length === 1) {
      return { fields: [this.submitFields(destination, 0, dataCoding, encodeText(sms.text, gsm))], reference: null, ids: [null] };
    }
    const earlier = sms.partsSent?.ids.length === chunks.length ? sms.partsSent : undefined;
    if (!earlier) this.concatRef = (this.concatRef + 1) & 0xff;
    const reference = earlier?.reference ?? this.concatRef;
    return {
      fields: chunks.map((chunk, index) => {
        const udh = Buffer.from([...UDH_CONCAT_HEADER, reference, chunks.length, index + 1]);
        return this.submitFields(destination, ESM_CLASS_UDHI, dataCoding, Buffer.concat([udh, encodeText(chunk, gsm)]));
      }),
      reference,
      ids: earlier ? [...earlier.ids] : chunks.map(() => null),
    };
  }

  private submitFields(destination: string, esmClass: number, dataCoding: number, shortMessage: Buffer): Record<string, unknown> {
    return {
      source_addr_ton: this.source.ton,
      source_addr_npi: this.source.npi,
      source_addr: this.source.addr,
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: destination,
      esm_class: esmClass,
      validity_period: this.validityPeriod,
      registered_delivery: this.settings.registeredDelivery ? 1 : 0,
      data_coding: dataCoding,
      short_message: shortMessage,
    };
  }

  private connect(): void {
    this.reconnectTimer = undefined;
    if (this.closed) return;
    const session = smpp.connect({ host: this.settings.host, port: this.settings.port });
    this.session = session;
    this.sessionStartedAt = Date.now();
    this.sessionError = undefined;
    this.connected = false;
    session.on('connect', () => {
      this.connected = true;
      // Without it, the last submit_sm of a batch waits for the SMSC's delayed ACK (~40 ms) before it leaves.
      session.socket.setNoDelay(true);
      session.bind_transceiver(
        {
          system_id: this.settings.systemId,
          password: this.settings.password,
          system_type: this.settings.systemType,
          interface_version: 0x34,
        },
        (response) => this.bindAnswered(session, response),
      );
    });
    session.on('error', (error: Error) => {
      this.sessionError = error.message;
    });
    session.on('close', () => this.sessionClosed(session, this.sessionError ?? `connection closed by ${this.target()}`));
    session.on('deliver_sm', (pdu: smpp.PDU) => this.deliverSm(session, pdu));
    session.on('enquire_link', (pdu: smpp.PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: smpp.PDU) => {
      this.sessionError = 'unbound by the SMSC';
      session.send(pdu.response());
      session.close();
    });
  }

  private bindAnswered(session: smpp.Session, response: smpp.PDU): void {
    if (session !== this.session) return;
    if (response.command_status !== 0) {
      this.drop(session, `bind refused: ${describeStatus(response.command_status)}`);
      return;
    }
    this.bound = true;
    this.lastError = undefined;
    this.backoffMs = RECONNECT_MIN_MS;
    this.lastEnquireAt = Date.now();
    this.enquireSentAt = undefined;
    this.context.log?.info({ target: this.target(), systemId: this.settings.systemId }, 'smpp bound');
    for (const waiter of [...this.waiters]) waiter(true);
    this.pump();
  }

  /** Gives up on a session at once (its 'close' comes later and is ignored) and fails what it carried. */
  private drop(session: smpp.Session, reason: string): void {
    this.sessionClosed(session, reason);
    session.destroy();
  }

  private sessionClosed(session: smpp.Session, reason: string): void {
    if (session !== this.session) return;
    const wasBound = this.bound;
    this.session = undefined;
    this.bound = false;
    this.lastError = reason;
    const error = wasBound ? `connection lost: ${reason}` : reason;
    const parts = [...this.inFlight.values(), ...this.queue.slice(this.head)];
    this.inFlight.clear();
    this.queue = [];
    this.head = 0;
    for (const part of parts) this.settle(part, undefined, { error, transient: true });
    for (const waiter of [...this.waiters]) waiter(false);
    if (this.closed) return;
    this.context.log?.warn(
      { target: this.target(), reason, retryInMs: this.backoffMs },
      wasBound ? 'smpp connection lost' : 'smpp bind failed',
    );
    this.reconnectTimer = setTimeout(() => this.connect(), this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, RECONNECT_MAX_MS);
  }

  /** Waits for the bind in progress; false at once while backing off, so the engine can fail over without delay. */
  private waitForBind(): Promise<boolean> {
    if (this.bound) return Promise.resolve(true);
    if (!this.session) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = (bound: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(bound);
      };
      const timer = setTimeout(() => waiter(false), this.bindWaitMs);
      this.waiters.add(waiter);
    });
  }

  /** Milliseconds until the rate limit allows the next submit_sm; 0 when it was taken now. */
  private takeToken(): number {
    const rate = this.settings.messagesPerSecond;
    if (!rate) return 0;
    const now = Date.now();
    this.tokens = Math.min(this.bucketSize(), this.tokens + ((now - this.tokensAt) * rate) / 1000);
    this.tokensAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / rate);
  }

  /** Fills the window from the queue. */
  private pump(): void {
    if (this.pumpTimer) return;
    const session = this.session;
    while (
      this.bound &&
      !this.closed &&
      session &&
      this.inFlight.size < this.settings.windowSize &&
      this.head < this.queue.length
    ) {
      const part = this.queue[this.head]!;
      if (part.message.failure) {
        this.head++;
        this.settle(part);
        continue;
      }
      const wait = this.takeToken();
      if (wait > 0) {
        this.pumpTimer = setTimeout(() => {
          this.pumpTimer = undefined;
          this.pump();
        }, wait);
        break;
      }
      this.head++;
      this.submit(session, part);
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head >= QUEUE_COMPACT_AT && this.head * 2 >= this.queue.length) {
      // Under steady load the queue never empties: drop the parts already submitted, or they stay referenced forever.
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  private submit(session: smpp.Session, part: Part): void {
    this.coalesceWrites(session);
    const pdu = new smpp.PDU('submit_sm', part.fields);
    const written = session.send(pdu, (response) => {
      if (this.inFlight.get(pdu.sequence_number) !== part) return;
      this.inFlight.delete(pdu.sequence_number);
      const status = response.command_status;
      if (status === 0) this.settle(part, String(response.message_id ?? ''));
      else
        this.settle(part, undefined, {
          error: `${response.command} ${describeStatus(status)}`,
          transient: TRANSIENT_STATUSES.has(status),
          recipientFault: RECIPIENT_STATUSES.has(status),
        });
      this.pump();
    });
    if (!written) {
      this.settle(part, undefined, { error: `connection lost: ${this.target()} not writable`, transient: true });
      return;
    }
    part.sentAt = Date.now();
    this.inFlight.set(pdu.sequence_number, part);
  }

  /**
   * The submits of one tick (a window refilled from one read of responses) leave in one write, not one system call
   * each: the socket is corked until the tick ends.
   */
  private coalesceWrites(session: smpp.Session): void {
    if (this.corked) return;
    const socket = session.socket;
    socket.cork();
    this.corked = true;
    process.nextTick(() => {
      this.corked = false;
      socket.uncork();
    });
  }

  /** Records one part's outcome; the message resolves with its last part. */
  private settle(part: Part, messageId?: string, failure?: PendingMessage['failure']): void {
    const message = part.message;
    if (messageId !== undefined) {
      message.ids[part.index] = messageId;
      message.accepted++;
    }
    if (failure && !message.failure) message.failure = failure;
    if (--message.remaining > 0) return;
    if (message.failure) {
      const { reference, ids } = message;
      const partsSent = reference !== null && ids.some((id) => id !== null) ? { partsSent: { reference, ids } } : {};
      message.resolve({ id: message.id, accepted: false, parts: message.accepted, ...message.failure, ...partsSent });
      return;
    }
    const ids = message.ids as string[];
    const primary = ids[0]!;
    for (const id of ids.slice(1)) this.rememberPart(id, primary);
    if (ids.length > 1) {
      this.partsAwaited.set(primary, ids.length);
      if (this.partsAwaited.size > MAX_PART_IDS) this.partsAwaited.delete(this.partsAwaited.keys().next().value!);
    }
    message.resolve({ id: message.id, accepted: true, providerMessageId: primary, parts: message.parts });
  }

  private rememberPart(id: string, primary: string): void {
    this.partIds.set(id, primary);
    if (this.partIds.size > MAX_PART_IDS) this.partIds.delete(this.partIds.keys().next().value!);
  }

  private deliverSm(session: smpp.Session, pdu: smpp.PDU): void {
    session.send(pdu.response());
    const report = parseDeliveryReceipt(messageText(pdu.short_message) || messageText(pdu.message_payload), {
      receiptedMessageId: typeof pdu.receipted_message_id === 'string' ? pdu.receipted_message_id : undefined,
      messageState: typeof pdu.message_state === 'number' ? pdu.message_state : undefined,
    });
    if (!report) {
      this.context.log?.info({ target: this.target(), from: pdu.source_addr }, 'smpp inbound deliver_sm ignored');
      return;
    }
    const primary = this.partIds.get(report.providerMessageId);
    if (primary !== undefined) {
      if (report.status !== 'unknown') this.partIds.delete(report.providerMessageId);
      report.providerMessageId = primary;
    }
    if (this.wholeMessageReport(report)) this.context.onDeliveryReport?.(report);
  }

  /**
   * A multi-part message is delivered once every part is, and undelivered as soon as one part is not: a part's
   * receipt is passed on only when it settles the whole message.
   */
  private wholeMessageReport(report: DeliveryReport): boolean {
    const awaited = this.partsAwaited.get(report.providerMessageId);
    if (awaited === undefined || report.status === 'unknown') return true;
    if (awaited === 0) return false;
    if (report.status === 'undelivered') {
      this.partsAwaited.set(report.providerMessageId, 0);
      return true;
    }
    if (awaited > 1) {
      this.partsAwaited.set(report.providerMessageId, awaited - 1);
      return false;
    }
    this.partsAwaited.delete(report.providerMessageId);
    return true;
  }

  /** Watchdog for unanswered connects, binds, submits and enquire_links, and the enquire_link heartbeat. */
  private tick(): void {
    const session = this.session;
    if (!session) return;
    const now = Date.now();
    const late = (since: number) => now - since > this.responseTimeoutMs;
    if (!this.bound) {
      if (late(this.sessionStartedAt)) {
        const awaited = this.connected ? 'bind_transceiver_resp' : `connect to ${this.target()}`;
        this.drop(session, `timed out after ${seconds(this.responseTimeoutMs)} waiting for ${awaited}`);
      }
      return;
    }
    const oldest = this.inFlight.values().next().value;
    if (oldest && late(oldest.sentAt)) {
      this.drop(session, `no submit_sm_resp within ${seconds(this.responseTimeoutMs)}`);
    } else if (this.enquireSentAt !== undefined) {
      if (late(this.enquireSentAt)) this.drop(session, `no enquire_link_resp within ${seconds(this.responseTimeoutMs)}`);
    } else if (now - this.lastEnquireAt >= this.enquireLinkMs) {
      this.enquireSentAt = now;
      session.enquire_link({}, () => {
        this.enquireSentAt = undefined;
        this.lastEnquireAt = Date.now();
      });
    }
  }
}

/** A fresh bind_transceiver and unbind, apart from the live session, so the answer reflects the settings as saved. */
function verifyBind(settings: SmppSettings, timeoutMs: number): Promise<VerifyResult> {
  const target = `${settings.host}:${settings.port}`;
  return new Promise((resolve) => {
    let awaited = `connect to ${target}`;
    let done = false;
    const session = smpp.connect({ host: settings.host, port: settings.port });
    const finish = (result: VerifyResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      session.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ ok: false, message: `timed out after ${seconds(timeoutMs)} waiting for ${awaited}` }),
      timeoutMs,
    );
    session.on('error', (error: Error) => finish({ ok: false, message: error.message }));
    session.on('close', () => finish({ ok: false, message: `connection closed by ${target} while waiting for ${awaited}` }));
    session.on('connect', () => {
      awaited = 'bind_transceiver_resp';
      session.bind_transceiver(
        { system_id: settings.systemId, password: settings.password, system_type: settings.systemType, interface_version: 0x34 },
        (response) => {
          if (response.command_status !== 0) {
            finish({ ok: false, message: `bind refused: ${describeStatus(response.command_status)}` });
            return;
          }
          awaited = 'unbind_resp';
          session.unbind({}, () => finish({ ok: true, message: `bound to ${target} as ${settings.systemId}` }));
        },
      );
    });
  });
}

export function createSmppChannel(settings: ChannelSettings, context: ChannelContext, timings?: SmppTimings): Channel {
  return new SmppChannel(settings, context, timings);
}

export const smppChannel: ChannelDefinition = {
  type: 'smpp',
  category: 'SMS',
  fields: [
    { name: 'host', label: 'providers.field.host', kind: 'string', required: true },
    { name: 'port', label: 'providers.field.port', kind: 'number', default: 2775, min: 1, max: 65535 },
    { name: 'systemId', label: 'providers.field.systemId', kind: 'string', required: true },
    { name: 'password', label: 'providers.field.password', kind: 'secret', secret: true },
    { name: 'systemType', label: 'providers.field.systemType', kind: 'string' },
    { name: 'sender', label: 'providers.field.sender', kind: 'string', required: true },
    {
      name: 'senderType',
      label: 'providers.field.senderType',
      kind: 'select',
      options: Object.keys(SENDER_TYPES),
      default: 'alphanumeric',
    },
    { name: 'windowSize', label: 'providers.field.windowSize', kind: 'number', default: 50, min: 1, max: 500 },
    { name: 'messagesPerSecond', label: 'providers.field.messagesPerSecond', kind: 'number', min: 1 },
    { name: 'lifetimeMinutes', label: 'providers.field.lifetimeMinutes', kind: 'number', min: 1, max: 43_200 },
    { name: 'flash', label: 'providers.field.flash', kind: 'boolean', default: false },
    { name: 'registeredDelivery', label: 'providers.field.registeredDelivery', kind: 'boolean', default: true },
    PRICE_PER_PART_FIELD,
  ],
  create: (settings, context) => createSmppChannel(settings, context),
};
