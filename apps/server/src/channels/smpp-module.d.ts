/** The part of the untyped `smpp` package (v0.5) that Herald uses: client and server sessions, PDUs, status codes. */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  namespace smpp {
    /** PDU fields are the SMPP spec's parameter and TLV names; values depend on the command. */
    type PduFields = Record<string, unknown>;

    class PDU {
      constructor(command: string, options?: PduFields);
      command: string;
      command_id: number;
      command_status: number;
      sequence_number: number;
      [field: string]: unknown;
      isResponse(): boolean;
      response(options?: PduFields): PDU;
    }

    interface Session extends EventEmitter {
      socket: Socket;
      /** False when the socket is not writable; the PDU is then dropped. */
      send(pdu: PDU, responseCallback?: (response: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
      bind_transceiver(options: PduFields, responseCallback?: (response: PDU) => void): boolean;
      submit_sm(options: PduFields, responseCallback?: (response: PDU) => void): boolean;
      deliver_sm(options: PduFields, responseCallback?: (response: PDU) => void): boolean;
      enquire_link(options: PduFields, responseCallback?: (response: PDU) => void): boolean;
      unbind(options: PduFields, responseCallback?: (response: PDU) => void): boolean;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
      pause(): void;
      resume(): void;
    }

    interface ConnectOptions {
      host: string;
      port: number;
    }

    interface Server extends NetServer {
      sessions: Session[];
    }

    function connect(options: ConnectOptions, listener?: () => void): Session;
    function createServer(listener: (session: Session) => void): Server;

    /** SMPP command_status codes by name, e.g. ESME_RTHROTTLED: 0x58. */
    const errors: Record<string, number>;
  }

  export = smpp;
}
