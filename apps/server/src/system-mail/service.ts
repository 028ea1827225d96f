/** Mail Herald sends on its own behalf: kept in the system outbox (visible to the admin) and logged. */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';

export interface SystemMail {
  to: string;
  subject: string;
  text: string;
}

export class SystemMailer {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(mail: SystemMail): Promise<void> {
    await this.db
      .insertInto('system_outbox')
      .values({ recipient: mail.to, subject: mail.subject, text_body: mail.text, created_at: Date.now() })
      .execute();
    this.log.info({ to: mail.to, subject: mail.subject }, 'system mail stored in the outbox');
  }
}
