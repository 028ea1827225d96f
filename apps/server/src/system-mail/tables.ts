import type { Generated } from 'kysely';

/** Mail Herald itself sends (password resets); in embedded mode it stays here for the admin to read. */
export interface SystemOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  text_body: string;
  created_at: number;
}

export interface SystemMailTables {
  system_outbox: SystemOutboxTable;
}
