/**
 * The unread policy: a campaign's e-mail that was sent (or delivered) but not opened within the campaign's window
 * after it finished becomes unread. An open afterwards still moves it on to read (messages/status.ts).
 */

import type { MessageStatus } from '@herald/shared';
import { detail } from '@herald/shared/message-details';
import type { Db } from '../db/database.js';
import { applyTransitions } from '../messages/ledger.js';

const HOUR_MS = 3_600_000;
/** Messages moved per statement round, so a million-message campaign is done over a few ticks without a long lock. */
const UNREAD_CHUNK = 2000;
const UNOPENED: MessageStatus[] = ['sent', 'delivered'];

/** Marks one chunk of each due campaign; a campaign with nothing left to mark is remembered as done. */
export async function markUnread(db: Db, now = Date.now()): Promise<number> {
  const due = await db
    .selectFrom('campaigns')
    .select(['id', 'finished_at', 'unread_after_hours'])
    .where('state', '=', 'sent')
    .where('channel', '=', 'EMAIL')
    .where('unread_marked_at', 'is', null)
    .where('finished_at', 'is not', null)
    .execute();
  let moved = 0;
  for (const campaign of due) {
    if (Number(campaign.finished_at) + Number(campaign.unread_after_hours) * HOUR_MS > now) continue;
    const rows = await db
      .selectFrom('messages')
      .select(['id', 'account_id', 'campaign_id', 'channel', 'created_at', 'status', 'config_id'])
      .where('campaign_id', '=', Number(campaign.id))
      .where('status', 'in', UNOPENED)
      .where('channel', '=', 'EMAIL')
      .limit(UNREAD_CHUNK)
      .execute();
    if (rows.length === 0) {
      await db.updateTable('campaigns').set({ unread_marked_at: now }).where('id', '=', Number(campaign.id)).execute();
      continue;
    }
    const applied = await applyTransitions(
      db,
      rows.map((row) => ({
        message: {
          id: Number(row.id),
          accountId: Number(row.account_id),
          campaignId: Number(row.campaign_id),
          channel: row.channel,
          createdAt: Number(row.created_at),
          status: row.status as MessageStatus,
          configId: row.config_id === null ? null : Number(row.config_id),
        },
        to: 'unread' as const,
        detail: detail('details.unopened', { hours: Number(campaign.unread_after_hours) }),
      })),
      now,
    );
    moved += applied.size;
  }
  return moved;
}
