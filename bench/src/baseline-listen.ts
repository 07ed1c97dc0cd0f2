// How each baseline server of bench/src runs: on a loopback port (PORT, or any free one), telling
// the bench its address on stdout (bench/src/servers.ts waits for that line), and stopping cleanly
// on SIGTERM after closing what it opened.
import type { FastifyInstance } from 'fastify';

export async function listenAsBaseline(app: FastifyInstance, closeAlso: () => Promise<unknown> = async () => undefined): Promise<void> {
  const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
  process.stdout.write(`listening ${address}\n`);
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(closeAlso)
      .then(() => process.exit(0));
  });
}
