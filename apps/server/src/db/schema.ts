/** The whole database as Kysely sees it: each domain declares its own tables. */
import type { ApiKeyTables } from '../api-keys/tables.js';
import type { AuthTables } from '../auth/tables.js';
import type { CampaignTables } from '../campaigns/tables.js';
import type { ContactTables } from '../contacts/tables.js';
import type { FeedbackTables } from '../feedback/tables.js';
import type { HookTables } from '../hooks/tables.js';
import type { MessageTables } from '../messages/tables.js';
import type { ProviderTables } from '../providers/tables.js';
import type { SsoTables } from '../sso/tables.js';
import type { SystemMailTables } from '../system-mail/tables.js';
import type { TemplateTables } from '../templates/tables.js';
import type { WebhookTables } from '../webhooks/tables.js';

export interface Database
  extends ApiKeyTables,
    AuthTables,
    CampaignTables,
    ContactTables,
    FeedbackTables,
    HookTables,
    MessageTables,
    ProviderTables,
    SsoTables,
    SystemMailTables,
    TemplateTables,
    WebhookTables {}
