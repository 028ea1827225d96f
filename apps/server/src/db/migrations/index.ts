/** Every migration in order; a new one gets the next number and a line here. */
import type { PortableMigration } from '../migrate.js';
import { accounts } from './0001_accounts.js';
import { feedback } from './0002_feedback.js';
import { systemMail } from './0003_system_mail.js';
import { providers } from './0004_providers.js';
import { contacts } from './0005_contacts.js';
import { templates } from './0006_templates.js';
import { sending } from './0007_sending.js';
import { api } from './0008_api.js';
import { statistics } from './0009_statistics.js';
import { settings } from './0010_settings.js';
import { campaignFallback } from './0011_campaign_fallback.js';
import { contactsFoldedName } from './0012_contacts_folded_name.js';
import { statisticsSpeed } from './0013_statistics_speed.js';
import { dailyRollup } from './0014_daily_rollup.js';
import { sandboxReceipts } from './0015_sandbox_receipts.js';
import { contactsListKey } from './0016_contacts_list_key.js';
import { waitingByCampaign } from './0017_waiting_by_campaign.js';
import { configPace } from './0018_config_pace.js';
import { limitHolds } from './0019_limit_holds.js';
import { anonymousFeedback } from './0020_anonymous_feedback.js';
import { smsPartsSent } from './0021_sms_parts_sent.js';
import { webhookOrder } from './0022_webhook_order.js';

export const migrations: Record<string, PortableMigration> = {
  '0001_accounts': accounts,
  '0002_feedback': feedback,
  '0003_system_mail': systemMail,
  '0004_providers': providers,
  '0005_contacts': contacts,
  '0006_templates': templates,
  '0007_sending': sending,
  '0008_api': api,
  '0009_statistics': statistics,
  '0010_settings': settings,
  '0011_campaign_fallback': campaignFallback,
  '0012_contacts_folded_name': contactsFoldedName,
  '0013_statistics_speed': statisticsSpeed,
  '0014_daily_rollup': dailyRollup,
  '0015_sandbox_receipts': sandboxReceipts,
  '0016_contacts_list_key': contactsListKey,
  '0017_waiting_by_campaign': waitingByCampaign,
  '0018_config_pace': configPace,
  '0019_limit_holds': limitHolds,
  '0020_anonymous_feedback': anonymousFeedback,
  '0021_sms_parts_sent': smsPartsSent,
  '0022_webhook_order': webhookOrder,
};
