/** Every provider type Herald knows; the console's config form is rendered from these definitions. */
import { genericHttpSmsChannel } from './generic-http-sms.js';
import { sandboxEmailChannel, sandboxSmsChannel } from './sandbox.js';
import { smppChannel } from './smpp.js';
import { smsRuChannel } from './smsru.js';
import { smtpChannel } from './smtp.js';
import { twilioChannel } from './twilio.js';
import type { ChannelDefinition } from './types.js';

export const CHANNEL_DEFINITIONS: readonly ChannelDefinition[] = [
  sandboxEmailChannel,
  sandboxSmsChannel,
  smtpChannel,
  smppChannel,
  twilioChannel,
  genericHttpSmsChannel,
  smsRuChannel,
];

export function findChannelDefinition(type: string): ChannelDefinition | undefined {
  return CHANNEL_DEFINITIONS.find((definition) => definition.type === type);
}
