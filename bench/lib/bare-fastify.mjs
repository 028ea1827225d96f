// Baseline for API benchmarks: a bare Fastify route answering a small JSON body, no database.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ username: 'bench@example.com', roles: ['site'], timeZone: { id: '001' } }));
// The sending API's shape: a JSON body in, 202 with a small JSON answer out.
app.post('/bare', async (request, reply) =>
  reply.status(202).send({ id: 1, status: 'unsent', channel: 'email', to: request.body.to, createdAt: new Date().toISOString() }),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
