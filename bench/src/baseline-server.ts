// The baseline: the smallest Fastify app, as fast as a JSON answer from Node gets.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${address}\n`);

process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
