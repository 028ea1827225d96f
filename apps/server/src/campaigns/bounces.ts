/**
 * Herald's own inbound SMTP for the bounce address: delivery status notifications (RFC 3464) that
 * report a permanent failure make the message undelivered and its contact bounced. Only reports that
 * quote Herald's signed X-Herald-Message header are believed, so nobody can bounce someone else's contacts.
 */
import type { MessageStatus } from '@herald/shared';
import type { FastifyBaseLogger } from 'fastify';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../db/database.js';
import { applyTransitions } from '../messages/ledger.js';
import { findMessageForTracking, suppressContact } from './queries.js';
import type { Tracking } from './tracking.js';

const MAX_REPORT_BYTES = 1024 * 1024;

export interface BounceReport {
  messageId: number;
  signature: string;
  /** The DSN's Status, e.g. 5.1.1. */
  status: string;
  diagnostic: string | null;
}

/** Reads the first failed recipient's status and the quoted message header out of a delivery report. */
export function parseBounce(raw: string): BounceReport | null {
  const header = /^X-Herald-Message:\s*(\d+)\.([A-Za-z0-9_-]+)/im.exec(raw);
  const action = /^Action:\s*(\w+)/im.exec(raw)?.[1]?.toLowerCase();
  const status = /^Status:\s*([245]\.\d{1,3}\.\d{1,3})/im.exec(raw)?.[1];
  if (!header || action !== 'failed' || !status) return null;
  const diagnostic = /^Diagnostic-Code:\s*(.+(?:\r?\n[ \t].+)*)/im.exec(raw)?.[1]?.replace(/\s+/g, ' ').trim() ?? null;
  return { messageId: Number(header[1]), signature: header[2]!, status, diagnostic };
}

export async function applyBounce(db: Db, tracking: Tracking, report: BounceReport): Promise<boolean> {
  if (!tracking.verify('bounce', report.messageId, report.signature) || !report.status.startsWith('5.')) return false;
  const row = await findMessageForTracking(db, report.messageId);
  if (!row) return false;
  await applyTransitions(db, [
    {
      message: {
        id: Number(row.id),
        accountId: Number(row.account_id),
        campaignId: row.campaign_id === null ? null : Number(row.campaign_id),
        channel: row.channel,
        createdAt: Number(row.created_at),
        status: row.status as MessageStatus,
        configId: row.config_id === null ? null : Number(row.config_id),
      },
      to: 'undelivered',
      detail: `bounce ${report.status}${report.diagnostic ? `: ${report.diagnostic}` : ''}`,
    },
  ]);
  if (row.contact_id) await suppressContact(db, Number(row.contact_id), 'bounced');
  return true;
}

export function startBounceListener(options: {
  db: Db;
  tracking: Tracking;
  port: number;
  host: string;
  log?: FastifyBaseLogger;
}) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: MAX_REPORT_BYTES,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_REPORT_BYTES) chunks.push(chunk);
      });
      stream.on('end', () => {
        const report = parseBounce(Buffer.concat(chunks).toString('utf8'));
        const applied = report ? applyBounce(options.db, options.tracking, report) : Promise.resolve(false);
        applied
          .then((matched) => options.log?.info({ matched, messageId: report?.messageId }, 'bounce received'))
          .catch((error: unknown) => options.log?.error({ err: error }, 'bounce could not be applied'))
          .finally(() => callback());
      });
    },
  });
  server.listen(options.port, options.host);
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
