/**
 * A loopback SMSC built on the smpp package's server, for tests and benchmarks: accepts bind_transceiver with
 * given credentials, keeps the submit_sm PDUs it receives and answers them with message ids, sends delivery
 * receipts on demand, and can be told to go silent or to drop its connections.
 */
import type { AddressInfo } from 'node:net';
import smpp from 'smpp';

export interface SmppServerOptions {
  systemId?: string;
  password?: string;
  /** command_status for a submit_sm, e.g. 0x58 to throttle; 0 (accepted) by default. */
  submitStatus?: (pdu: smpp.PDU) => number;
  /** Delay before each submit_sm_resp, to keep a client's window full. */
  responseDelayMs?: number;
  /**
   * Answer with TCP_NODELAY. Off by default, like a plain net.Server: Nagle then holds the last answers of a burst
   * until the client's delayed ACK (about 40 ms), which a client waiting for a whole batch feels.
   */
  noDelay?: boolean;
  /** Keep each submit_sm received (default); benchmarks only count them. */
  record?: boolean;
}

export interface ReceivedSubmit {
  pdu: smpp.PDU;
  /** The message_id answered, or undefined when the submit_sm was refused. */
  messageId?: string;
}

export interface ReceiptOptions {
  messageId: string;
  stat?: string;
  err?: string;
  /** Also send the receipted_message_id and message_state TLVs. */
  tlvs?: boolean;
}

const STATE_CODES: Record<string, number> = {
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
};
const ESME_RINVPASWD = 0x0e;
const ESME_RINVSYSID = 0x0f;
const ESME_RINVBNDSTS = 0x04;

export class SmppTestServer {
  readonly submits: ReceivedSubmit[] = [];
  submitCount = 0;
  /** Successful binds since start, to see reconnects. */
  binds = 0;
  enquireLinks = 0;
  /** Most submit_sm received but not yet answered at any one time: the client's effective window. */
  maxOutstanding = 0;
  private outstanding = 0;
  private answering = true;
  private nextId = 0;
  private readonly sessions = new Set<smpp.Session>();
  private readonly bound = new Set<smpp.Session>();
  private readonly server: smpp.Server;
  private readonly systemId: string;
  private readonly password: string;

  constructor(private readonly options: SmppServerOptions = {}) {
    this.systemId = options.systemId ?? 'herald';
    this.password = options.password ?? 'secret';
    this.server = smpp.createServer((session) => this.accept(session));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  listen(port = 0): Promise<this> {
    return new Promise((resolve) => this.server.listen(port, '127.0.0.1', () => resolve(this)));
  }

  /** Ignore every PDU from now on, binds included, as a hung SMSC would. */
  stopAnswering(): void {
    this.answering = false;
  }

  resumeAnswering(): void {
    this.answering = true;
  }

  dropConnections(): void {
    for (const session of this.sessions) session.destroy();
  }

  boundSessions(): number {
    return this.bound.size;
  }

  /** Sends a deliver_sm receipt over the latest bound session and resolves with the client's deliver_sm_resp. */
  sendReceipt({ messageId, stat = 'DELIVRD', err = '000', tlvs = false }: ReceiptOptions): Promise<smpp.PDU> {
    const session = [...this.bound].at(-1);
    if (!session) throw new Error('no bound session to send a receipt over');
    const delivered = stat === 'DELIVRD' ? '001' : '000';
    const text = `id:${messageId} sub:001 dlvrd:${delivered} submit date:2611051200 done date:2611051201 stat:${stat} err:${err} text:Hello`;
    return new Promise((resolve) => {
      session.deliver_sm(
        {
          source_addr: '380501234567',
          destination_addr: 'Herald',
          esm_class: 0x04,
          short_message: text,
          ...(tlvs ? { receipted_message_id: messageId, message_state: STATE_CODES[stat] ?? 7 } : {}),
        },
        resolve,
      );
    });
  }

  async waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): Promise<void> {
    this.dropConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(session: smpp.Session): void {
    this.sessions.add(session);
    if (this.options.noDelay) session.socket.setNoDelay(true);
    session.on('error', () => {});
    session.on('close', () => {
      this.sessions.delete(session);
      this.bound.delete(session);
    });
    session.on('pdu', (pdu: smpp.PDU) => {
      if (pdu.isResponse() || !this.answering) return;
      switch (pdu.command) {
        case 'bind_transceiver':
          this.bind(session, pdu);
          break;
        case 'submit_sm':
          this.submit(session, pdu);
          break;
        case 'enquire_link':
          this.enquireLinks++;
          session.send(pdu.response());
          break;
        case 'unbind':
          this.bound.delete(session);
          session.send(pdu.response());
          session.close();
          break;
        default:
          session.send(pdu.response());
      }
    });
  }

  private bind(session: smpp.Session, pdu: smpp.PDU): void {
    const status = pdu.system_id !== this.systemId ? ESME_RINVSYSID : pdu.password !== this.password ? ESME_RINVPASWD : 0;
    session.send(pdu.response({ command_status: status, system_id: 'herald-test-smsc' }));
    if (status !== 0) return;
    this.bound.add(session);
    this.binds++;
  }

  private submit(session: smpp.Session, pdu: smpp.PDU): void {
    this.submitCount++;
    const status = !this.bound.has(session) ? ESME_RINVBNDSTS : (this.options.submitStatus?.(pdu) ?? 0);
    const messageId = status === 0 ? (++this.nextId).toString(16).padStart(8, '0') : undefined;
    if (this.options.record !== false) this.submits.push({ pdu, messageId });
    const answer = () => {
      this.outstanding--;
      if (this.answering) session.send(pdu.response(status === 0 ? { message_id: messageId } : { command_status: status }));
    };
    this.maxOutstanding = Math.max(this.maxOutstanding, ++this.outstanding);
    if (this.options.responseDelayMs) setTimeout(answer, this.options.responseDelayMs);
    else answer();
  }
}

export function startSmppServer(options?: SmppServerOptions): Promise<SmppTestServer> {
  return new SmppTestServer(options).listen();
}
