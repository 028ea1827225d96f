/** The admin's view of the system outbox. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/database.js';

const OutboxPage = Type.Object({
  total: Type.Number(),
  items: Type.Array(
    Type.Object({
      id: Type.Number(),
      recipient: Type.String(),
      subject: Type.String(),
      text: Type.String(),
      createdAt: Type.Number(),
    }),
  ),
});

export const systemMailRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/data/system-outbox',
    {
      config: { roles: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'Mail Herald sent on its own behalf (password resets)',
        querystring: Type.Object({
          page: Type.Integer({ minimum: 1, default: 1 }),
          size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
        }),
        response: { 200: OutboxPage },
      },
    },
    async (request) => {
      const { page, size } = request.query;
      const rows = await db
        .selectFrom('system_outbox')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      const total = await db
        .selectFrom('system_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return {
        total: Number(total.n),
        items: rows.map((row) => ({
          id: Number(row.id),
          recipient: row.recipient,
          subject: row.subject,
          text: row.text_body,
          createdAt: Number(row.created_at),
        })),
      };
    },
  );
};
