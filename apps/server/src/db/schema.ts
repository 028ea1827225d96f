/** The whole database as Kysely sees it: each domain declares its own tables. */
import type { AuthTables } from '../auth/tables.js';
import type { CampaignTables } from '../campaigns/tables.js';
import type { ContactTables } from '../contacts/tables.js';
import type { FeedbackTables } from '../feedback/tables.js';
import type { MessageTables } from '../messages/tables.js';
import type { ProviderTables } from '../providers/tables.js';
import type { SystemMailTables } from '../system-mail/tables.js';
import type { TemplateTables } from '../templates/tables.js';

export interface Database
  extends AuthTables,
    CampaignTables,
    ContactTables,
    FeedbackTables,
    MessageTables,
    ProviderTables,
    SystemMailTables,
    TemplateTables {}
