// The least a login can be over HTTP: Fastify answering a POST once the posted password has passed
// one argon2id verify through Berth's own hasher (server/src/lib/password.ts: one hash per core at a
// time). Berth's logins against this are what Berth does beside the verify; this against raw
// verifies is what any answer over HTTP costs beside it on the machine (bench/src/logins.ts).
import Fastify from 'fastify';
import { listenAsBaseline } from './baseline-listen.ts';
import { PasswordHasher } from '../../server/src/lib/password.ts';

const hash = process.env.VERIFY_HASH;
if (!hash) throw new Error('VERIFY_HASH is required');
// Only verify is used: it reads its parameters from the hash.
const hasher = new PasswordHasher({ memoryCost: 19_456, timeCost: 2 });

const app = Fastify({ logger: false });
app.post<{ Body: { password?: unknown } }>('/', async (request, reply) => {
  const password = typeof request.body.password === 'string' ? request.body.password : '';
  if (!(await hasher.verify(hash, password))) return reply.code(422).send({ message: 'wrong password' });
  return { data: { ok: true } };
});

await listenAsBaseline(app);
