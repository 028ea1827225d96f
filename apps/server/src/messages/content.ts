/**
 * API messages that name a template are rendered at send time with the account's template (compiled once
 * per template version) and the variables stored in their payload: each is {{ vars.<name> }} (over the
 * account's variable of that name) and {{ contact.attributes.<name> }}. Every other message goes to the
 * resolver this one wraps (campaign templates, inline content).
 */
import type { OutgoingMessage } from '../channels/types.js';
import type { Db } from '../db/database.js';
import type { ContentResolver, ResolvedContent } from '../engine/content.js';
import type { ClaimedMessage } from '../engine/queue.js';
import { variableValues } from '../templates/queries.js';
import { type CompiledTemplate, compileTemplate } from '../templates/render.js';

const COMPILED_CACHE_SIZE = 200;

function isApiTemplateMessage(message: ClaimedMessage): boolean {
  return message.campaignId === null && message.contactId === null && message.templateId !== null;
}

export class ApiTemplateContent implements ContentResolver {
  private readonly compiled = new Map<string, CompiledTemplate>();

  constructor(
    private readonly db: Db,
    private readonly others: ContentResolver,
  ) {}

  async resolve(messages: readonly ClaimedMessage[]): Promise<Map<number, ResolvedContent>> {
    const mine = messages.filter(isApiTemplateMessage);
    const resolved = await this.others.resolve(mine.length === 0 ? messages : messages.filter((m) => !isApiTemplateMessage(m)));
    if (mine.length === 0) return resolved;

    const templates = await this.db
      .selectFrom('templates')
      .select(['id', 'account_id', 'channel', 'subject', 'html', 'text', 'sms_text', 'updated_at'])
      .where('id', 'in', [...new Set(mine.map((message) => message.templateId!))])
      .execute();
    const templateById = new Map(templates.map((template) => [Number(template.id), template]));
    const varsByAccount = new Map<number, Record<string, string>>();
    for (const accountId of new Set(mine.map((message) => message.accountId)))
      varsByAccount.set(accountId, await variableValues(this.db, accountId));

    for (const message of mine) {
      const template = templateById.get(message.templateId!);
      if (!template || Number(template.account_id) !== message.accountId) {
        resolved.set(message.id, { error: 'the template was deleted' });
        continue;
      }
      try {
        const given = message.payload
          ? ((JSON.parse(message.payload) as { variables?: Record<string, string> }).variables ?? {})
          : {};
        const email = message.channel === 'EMAIL';
        const output = this.compile(template)({
          contact: {
            ...(email ? { email: message.recipient } : { phone: message.recipient }),
            language: message.locale,
            attributes: given,
          },
          vars: { ...varsByAccount.get(message.accountId), ...given },
        });
        const outgoing: OutgoingMessage = email
          ? { id: message.id, to: message.recipient, subject: output.subject, html: output.html, text: output.text }
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
  }): CompiledTemplate {
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
