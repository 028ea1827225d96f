/** Public endpoints behind the signed links: open pixel, click redirect, unsubscribe (GET page, POST one-click). */

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Language, MessageStatus } from '@herald/shared';
import { Type } from 'typebox';
import type { Db } from '../db/database.js';
import { applyTransitions } from '../messages/ledger.js';
import { findMessageForTracking, suppressContact } from './queries.js';
import type { Tracking } from './tracking.js';

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const PAGES: Record<Language, { title: string; ask: string; confirm: string; done: string; invalid: string; link: string }> = {
  en: {
    title: 'Unsubscribe',
    ask: 'Stop receiving these messages?',
    confirm: 'Unsubscribe',
    done: 'You are unsubscribed and will not receive these messages any more.',
    invalid: 'This link is not valid.',
    link: 'Link',
  },
  ru: {
    title: 'Отписка',
    ask: 'Больше не получать эти сообщения?',
    confirm: 'Отписаться',
    done: 'Вы отписаны и больше не будете получать эти сообщения.',
    invalid: 'Эта ссылка недействительна.',
    link: 'Ссылка',
  },
  uk: {
    title: 'Відписка',
    ask: 'Більше не отримувати ці повідомлення?',
    confirm: 'Відписатися',
    done: 'Вас відписано, ви більше не отримуватимете ці повідомлення.',
    invalid: 'Це посилання недійсне.',
    link: 'Посилання',
  },
};

/** A page of its own; `title` is the unsubscribe page's unless the page is another's (a broken click link). */
function page(language: Language, body: string, title = PAGES[language].title): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;color:#1f2937}main{max-width:420px;text-align:center}button{background:#1890ff;color:#fff;border:0;border-radius:6px;padding:10px 20px;font-size:16px;cursor:pointer}</style></head><body><main>${body}</main></body></html>`;
}

const Params = Type.Object({ id: Type.Integer({ minimum: 1 }), signature: Type.String({ maxLength: 64 }) });

export const trackingRoutes: FastifyPluginAsyncTypebox<{ db: Db; tracking: Tracking }> = async (app, { db, tracking }) => {
  const tags = ['tracking'];

  async function markRead(messageId: number): Promise<void> {
    const row = await findMessageForTracking(db, messageId);
    if (row?.channel !== 'EMAIL') return;
    await applyTransitions(db, [
      {
        message: {
          id: Number(row.id),
          accountId: Number(row.account_id),
          campaignId: row.campaign_id === null ? null : Number(row.campaign_id),
          channel: row.channel,
          createdAt: Number(row.created_at),
          status: row.status as MessageStatus,
          configId: row.config_id === null ? null : Number(row.config_id),
        },
        to: 'read',
      },
    ]);
  }

  app.get(
    '/t/o/:id/:signature',
    { config: { public: true }, schema: { tags, summary: 'Open pixel: the message becomes read', params: Params } },
    async (request, reply) => {
      if (tracking.verify('open', request.params.id, request.params.signature)) await markRead(request.params.id);
      return reply.header('cache-control', 'no-store').type('image/gif').send(PIXEL);
    },
  );

  app.get(
    '/t/c/:id/:signature',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Click redirect to the signed target',
        params: Params,
        querystring: Type.Object({ u: Type.String({ maxLength: 4000 }) }),
      },
    },
    async (request, reply) => {
      const target = request.query.u;
      if (!/^https?:\/\//i.test(target) || !tracking.verifyClick(request.params.id, request.params.signature, target)) {
        return reply
          .status(404)
          .type('text/html')
          .send(page(request.lang, `<p>${PAGES[request.lang].invalid}</p>`, PAGES[request.lang].link));
      }
      await markRead(request.params.id);
      return reply.redirect(target, 302);
    },
  );

  app.get(
    '/t/u/:id/:signature',
    {
      config: { public: true },
      schema: { tags, summary: 'Unsubscribe page (asks first: mail scanners follow GET links)', params: Params },
    },
    async (request, reply) => {
      const texts = PAGES[request.lang];
      if (!tracking.verify('unsubscribe', request.params.id, request.params.signature)) {
        return reply
          .status(404)
          .type('text/html')
          .send(page(request.lang, `<p>${texts.invalid}</p>`));
      }
      return reply
        .type('text/html')
        .send(
          page(
            request.lang,
            `<h1>${texts.title}</h1><p>${texts.ask}</p><form method="post"><button type="submit">${texts.confirm}</button></form>`,
          ),
        );
    },
  );

  app.post(
    '/t/u/:id/:signature',
    {
      config: { public: true },
      schema: { tags, summary: 'Unsubscribe (RFC 8058 one-click or the page button)', params: Params },
    },
    async (request, reply) => {
      const texts = PAGES[request.lang];
      if (!tracking.verify('unsubscribe', request.params.id, request.params.signature)) {
        return reply
          .status(404)
          .type('text/html')
          .send(page(request.lang, `<p>${texts.invalid}</p>`));
      }
      const row = await findMessageForTracking(db, request.params.id);
      if (row?.contact_id) await suppressContact(db, Number(row.contact_id), 'unsubscribed');
      return reply.type('text/html').send(page(request.lang, `<h1>${texts.title}</h1><p>${texts.done}</p>`));
    },
  );
};
