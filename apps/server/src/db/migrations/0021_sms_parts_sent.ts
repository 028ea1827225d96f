import type { PortableMigration } from '../migrate.js';

/** A long SMS a provider took part of before refusing the rest: the parts it took, so a retry sends only the others. */
export const smsPartsSent: PortableMigration = {
  async up(db) {
    await db.schema.alterTable('messages').addColumn('sms_parts_sent', 'text').execute();
  },
};
