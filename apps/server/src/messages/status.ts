/**
 * Message statuses move forward only (ARCHITECTURE.md, Delivery tracking): each status lists the ones
 * it may become. A late receipt that would move a message back is ignored, never applied.
 */
import type { MessageStatus } from '@herald/shared';

const NEXT: Record<MessageStatus, readonly MessageStatus[]> = {
  unsent: ['processing', 'filtered', 'failed'],
  // A lease that runs out hands the message back as unsent (or resending, after an attempt).
  processing: ['sent', 'sent_alternative', 'resending', 'failed', 'filtered', 'unsent'],
  resending: ['processing', 'failed', 'filtered'],
  sent: ['delivered', 'undelivered', 'unknown', 'unread', 'read'],
  sent_alternative: ['delivered', 'undelivered', 'unknown', 'unread', 'read'],
  unknown: ['delivered', 'undelivered', 'unread', 'read'],
  delivered: ['unread', 'read'],
  unread: ['read'],
  undelivered: [],
  read: [],
  failed: [],
  filtered: [],
};

export function canMove(from: MessageStatus, to: MessageStatus): boolean {
  return NEXT[from].includes(to);
}

/** Statuses a message can leave only through a provider event, or never: it counts as done for its campaign. */
export const SETTLED_STATUSES: readonly MessageStatus[] = [
  'sent',
  'sent_alternative',
  'delivered',
  'undelivered',
  'unread',
  'read',
  'unknown',
  'failed',
  'filtered',
];

/** Statuses that went through a provider (used by limits and delivery rates). */
export const ACCEPTED_STATUSES: readonly MessageStatus[] = [
  'sent',
  'sent_alternative',
  'delivered',
  'undelivered',
  'unread',
  'read',
  'unknown',
];
