// Baseline for API benchmarks: a bare Fastify route answering a small JSON body, no database.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ username: 'bench@example.com', roles: ['site'], timeZone: { id: '001' } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
