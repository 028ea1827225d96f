/** Message statuses of the spec's section 4, in the order delivery moves through them. */
export const MESSAGE_STATUSES = [
  'unsent',
  'processing',
  'resending',
  'sent',
  'sent_alternative',
  'delivered',
  'undelivered',
  'unread',
  'read',
  'failed',
  'filtered',
  'unknown',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Statuses the queue still has to work on. */
export const PENDING_STATUSES: readonly MessageStatus[] = ['unsent', 'processing', 'resending'];

export const CAMPAIGN_STATES = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled', 'failed'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

export const CHANNEL_CATEGORIES = ['EMAIL', 'SMS'] as const;
export type ChannelCategory = (typeof CHANNEL_CATEGORIES)[number];

export const CONTACT_STATUSES = ['active', 'unsubscribed', 'bounced', 'blocked'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];
