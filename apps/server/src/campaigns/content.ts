/**
 * Campaign messages render their template for their contact at send time: each template is compiled
 * once (per version) and reused for every recipient of every batch.
 */
import type { OutgoingMessage } from '../channels/types.js';
import type { Db } from '../db/database.js';
import { type ContentResolver, payloadContent, type ResolvedContent } from '../engine/content.js';
import type { ClaimedMessage } from '../engine/queue.js';
import { variableValues } from '../templates/queries.js';
import { type CompiledTemplate, compileTemplate, type TemplateContact } from '../templates/render.js';
import type { Tracking } from './tracking.js';

const COMPILED_CACHE_SIZE = 200;

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

    const templates = await this.db
      .selectFrom('templates')
      .selectAll()
      .where('id', 'in', [...new Set(rendered.map((message) => message.templateId!))])
      .execute();
    const contacts = await this.db
      .selectFrom('contacts')
      .select(['id', 'name', 'email', 'phone', 'language', 'time_zone', 'attributes'])
      .where('id', 'in', [...new Set(rendered.map((message) => message.contactId!))])
      .execute();
    const contactById = new Map(contacts.map((contact) => [Number(contact.id), contact]));
    const templateById = new Map(templates.map((template) => [Number(template.id), template]));
    const varsByAccount = new Map<number, Record<string, string>>();
    const bounceByAccount = new Map<number, string | null>();
    for (const accountId of new Set(rendered.map((message) => message.accountId))) {
      varsByAccount.set(accountId, await variableValues(this.db, accountId));
      const account = await this.db
        .selectFrom('accounts')
        .select('bounce_address')
        .where('id', '=', accountId)
        .executeTakeFirst();
      bounceByAccount.set(accountId, account?.bounce_address ?? null);
    }

    for (const message of rendered) {
      const template = templateById.get(message.templateId!);
      const contact = contactById.get(message.contactId!);
      if (!template || !contact) {
        resolved.set(message.id, { error: template ? 'the contact was deleted' : 'the template was deleted' });
        continue;
      }
      try {
        const render = this.compile(template);
        const scope: TemplateContact = {
          id: Number(contact.id),
          name: contact.name,
          email: contact.email,
          phone: contact.phone,
          language: contact.language,
          timeZone: contact.time_zone,
          attributes: contact.attributes ? (JSON.parse(contact.attributes) as Record<string, unknown>) : {},
        };
        const output = render({ contact: scope, vars: varsByAccount.get(message.accountId) ?? {} });
        const bounce = bounceByAccount.get(message.accountId);
        const outgoing: OutgoingMessage =
          message.channel === 'EMAIL'
            ? this.tracking.decorate({
                id: message.id,
                to: message.recipient,
                ...(contact.name ? { toName: contact.name } : {}),
                ...(bounce ? { returnPath: bounce } : {}),
                subject: output.subject,
                html: output.html,
                text: output.text,
              })
            : { id: message.id, to: message.recipient, text: output.smsText };
        resolved.set(message.id, { message: outgoing });
      } catch (error) {
        resolved.set(message.id, { error: `template: ${(error as Error).message}` });
      }
    }
    return resolved;
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
