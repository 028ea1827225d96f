/**
 * Campaign messages render their template for their contact at send time: each template is compiled
 * once (per version) and reused for every recipient of every batch.
 */
import type { Selectable } from 'kysely';
import type { OutgoingMessage } from '../channels/types.js';
import type { ContactsTable } from '../contacts/tables.js';
import { type Db, inIds } from '../db/database.js';
import { type ContentResolver, type FallbackRoute, payloadContent, type ResolvedContent } from '../engine/content.js';
import type { ClaimedMessage } from '../engine/queue.js';
import { variableValues } from '../templates/queries.js';
import { type CompiledTemplate, compileTemplate, type TemplateContact } from '../templates/render.js';
import type { TemplatesTable } from '../templates/tables.js';
import type { Tracking } from './tracking.js';

const COMPILED_CACHE_SIZE = 200;

type TemplateRow = Selectable<TemplatesTable>;
type ContactRow = Pick<
  Selectable<ContactsTable>,
  'id' | 'name' | 'email' | 'phone' | 'language' | 'time_zone' | 'attributes' | 'status'
>;

/** What rendering needs besides the template and the contact: the account's variables and bounce address. */
interface AccountContext {
  vars: Record<string, string>;
  bounce: string | null;
}

export class CampaignContent implements ContentResolver {
  private readonly compiled = new Map<string, CompiledTemplate>();

  constructor(
    private readonly db: Db,
    private readonly tracking: Tracking,
  ) {}

  async resolve(messages: readonly ClaimedMessage[]): Promise<Map<number, ResolvedContent>> {
    const rendered = messages.filter((message) => message.templateId !== null && message.contactId !== null);
    const resolved = await payloadContent.resolve(messages.filter((message) => !rendered.includes(message)));
    if (rendered.length === 0) return resolved;

    const templateById = await this.templates(rendered.map((message) => message.templateId!));
    const contactById = await this.contacts(rendered.map((message) => message.contactId!));
    const accounts = await this.accounts(rendered.map((message) => message.accountId));
    for (const message of rendered) {
      const template = templateById.get(message.templateId!);
      const contact = contactById.get(message.contactId!);
      if (!template || !contact) {
        resolved.set(message.id, { error: template ? 'the contact was deleted' : 'the template was deleted' });
        continue;
      }
      try {
        const content = this.render(
          message.id,
          message.channel,
          message.recipient,
          template,
          contact,
          accounts.get(message.accountId)!,
        );
        resolved.set(message.id, { message: content });
      } catch (error) {
        resolved.set(message.id, { error: `template: ${(error as Error).message}` });
      }
    }
    return resolved;
  }

  /**
   * Campaign messages whose campaign names a fallback template go to the other channel when their contact is
   * still active and has an address there; the fallback is rendered for the contact like the campaign's own template.
   */
  async fallback(messages: readonly ClaimedMessage[]): Promise<Map<number, FallbackRoute>> {
    const routes = new Map<number, FallbackRoute>();
    const eligible = messages.filter((message) => message.campaignId !== null && message.contactId !== null);
    if (eligible.length === 0) return routes;
    const campaigns = await this.db
      .selectFrom('campaigns')
      .select(['id', 'fallback_template_id', 'fallback_group_id', 'fallback_config_id'])
      .where('id', 'in', [...new Set(eligible.map((message) => message.campaignId!))])
      .where('fallback_template_id', 'is not', null)
      .execute();
    if (campaigns.length === 0) return routes;
    const campaignById = new Map(campaigns.map((campaign) => [Number(campaign.id), campaign]));
    const falling = eligible.filter((message) => campaignById.has(message.campaignId!));
    const templateById = await this.templates(campaigns.map((campaign) => Number(campaign.fallback_template_id)));
    const contactById = await this.contacts(falling.map((message) => message.contactId!));
    const accounts = await this.accounts(falling.map((message) => message.accountId));
    for (const message of falling) {
      const campaign = campaignById.get(message.campaignId!)!;
      const template = templateById.get(Number(campaign.fallback_template_id));
      const contact = contactById.get(message.contactId!);
      const channel = message.channel === 'EMAIL' ? 'SMS' : 'EMAIL';
      const recipient = channel === 'SMS' ? contact?.phone : contact?.email;
      if (!template || template.channel !== channel || !contact || contact.status !== 'active' || !recipient) continue;
      try {
        routes.set(message.id, {
          channel,
          recipient,
          content: this.render(message.id, channel, recipient, template, contact, accounts.get(message.accountId)!),
          routeGroupId: campaign.fallback_group_id === null ? null : Number(campaign.fallback_group_id),
          routeConfigId: campaign.fallback_config_id === null ? null : Number(campaign.fallback_config_id),
        });
      } catch {
        // A fallback template that does not render leaves the message's own outcome in place.
      }
    }
    return routes;
  }

  private async templates(ids: number[]): Promise<Map<number, TemplateRow>> {
    const rows = await this.db
      .selectFrom('templates')
      .selectAll()
      .where(inIds(this.db, 'id', [...new Set(ids)]))
      .execute();
    return new Map(rows.map((template) => [Number(template.id), template]));
  }

  private async contacts(ids: number[]): Promise<Map<number, ContactRow>> {
    const rows = await this.db
      .selectFrom('contacts')
      .select(['id', 'name', 'email', 'phone', 'language', 'time_zone', 'attributes', 'status'])
      .where(inIds(this.db, 'id', [...new Set(ids)]))
      .execute();
    return new Map(rows.map((contact) => [Number(contact.id), contact]));
  }

  private async accounts(ids: number[]): Promise<Map<number, AccountContext>> {
    const contexts = new Map<number, AccountContext>();
    for (const accountId of new Set(ids)) {
      const account = await this.db
        .selectFrom('accounts')
        .select('bounce_address')
        .where('id', '=', accountId)
        .executeTakeFirst();
      contexts.set(accountId, { vars: await variableValues(this.db, accountId), bounce: account?.bounce_address ?? null });
    }
    return contexts;
  }

  /** One recipient's message of a channel; e-mail gets the tracking links and unsubscribe headers. */
  private render(
    id: number,
    channel: string,
    recipient: string,
    template: TemplateRow,
    contact: ContactRow,
    account: AccountContext,
  ): OutgoingMessage {
    const scope: TemplateContact = {
      id: Number(contact.id),
      name: contact.name,
      email: contact.email,
      phone: contact.phone,
      language: contact.language,
      timeZone: contact.time_zone,
      attributes: contact.attributes ? (JSON.parse(contact.attributes) as Record<string, unknown>) : {},
    };
    const tracking = this.tracking;
    const output = this.compile(template)({
      contact: scope,
      vars: account.vars,
      // Signed only when the template reads it: most SMS texts do not, and the HMAC is a fair share of their cost.
      get unsubscribe_url() {
        return tracking.unsubscribeUrl(id);
      },
    });
    if (channel !== 'EMAIL') return { id, to: recipient, text: output.smsText };
    return this.tracking.decorate({
      id,
      to: recipient,
      ...(contact.name ? { toName: contact.name } : {}),
      ...(account.bounce ? { returnPath: account.bounce } : {}),
      subject: output.subject,
      html: output.html,
      text: output.text,
    });
  }

  private compile(template: {
    id: number;
    updated_at: number;
    channel: string;
    subject: string;
    html: string;
    text: string;
    sms_text: string;
  }) {
    const key = `${template.id}:${template.updated_at}`;
    let compiled = this.compiled.get(key);
    if (!compiled) {
      compiled = compileTemplate({
        channel: template.channel as 'EMAIL' | 'SMS',
        subject: template.subject,
        html: template.html,
        text: template.text,
        smsText: template.sms_text,
      });
      if (this.compiled.size >= COMPILED_CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value as string);
      this.compiled.set(key, compiled);
    }
    return compiled;
  }
}
