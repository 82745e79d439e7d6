/**
 * The read bench's baseline: a bare Fastify 5 server that answers the same
 * URLs with the same bytes afford gave, looked up by X-Customer-ID, with no
 * auth, no store and no serialisation. Started by bench/reads.ts with the
 * path of a JSON file of {url: {customerId: body}}; prints its address.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const file = process.argv[2];
if (!file) throw new Error('usage: reads-bare-server.ts BODIES.json');
const bodies = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
const app = Fastify({ logger: false });
for (const [url, byCustomer] of Object.entries(bodies)) {
  const [pathname] = url.split('?');
  const answers = new Map(Object.entries(byCustomer).map(([customer, body]) => [customer, Buffer.from(body)]));
  app.get(pathname ?? url, async (request, reply) => {
    const body = answers.get(String(request.headers['x-customer-id']));
    if (!body) return reply.code(404).send({ message: 'no such customer' });
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${address}\n`);
