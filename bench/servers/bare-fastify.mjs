import Fastify from 'fastify';

/** The yardstick: a bare Fastify route answering the same 302 a Snip redirect answers. */
const app = Fastify({ logger: false });
app.get('/:code', async (_request, reply) => reply.redirect('https://example.com/landing?utm_source=bench', 302));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);
