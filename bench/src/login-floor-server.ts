// The least a sign-in that keeps Berth's rules can be over HTTP: Fastify answering a POST after
// Berth's own password step (server/src/modules/auth/service.ts: the tries on the account and the
// address counted and the account found in one statement, the verify, then the tries released with
// the audit and session rows in a second), with none of Berth's request path around it (its hooks,
// schemas, session cookie and the user's abilities). Logins against it are what that path costs;
// it against the bare verify over HTTP is what the two statements cost (bench/src/logins.ts).
import Fastify from 'fastify';
import { listenAsBaseline } from './baseline-listen.ts';
import { sql } from 'kysely';
import { pino } from 'pino';
import { openDatabase } from '../../server/src/db/connection.ts';
import { systemClock } from '../../server/src/lib/clock.ts';
import { PasswordHasher } from '../../server/src/lib/password.ts';
import { AuditService } from '../../server/src/modules/audit/service.ts';
import { AuthService, LOGIN_THROTTLES } from '../../server/src/modules/auth/service.ts';
import { FailureThrottle } from '../../server/src/modules/auth/throttle.ts';
import { SessionService } from '../../server/src/modules/sessions/service.ts';

const databaseUrl = process.env.DATABASE_URL;
const adminEmail = process.env.ADMIN_EMAIL;
if (!databaseUrl || !adminEmail) throw new Error('DATABASE_URL and ADMIN_EMAIL are required');

const database = await openDatabase({ databaseUrl, dataDir: '' });
const { db } = database;
// Only verify is used: it reads its parameters from the stored hash.
const hasher = new PasswordHasher({ memoryCost: 19_456, timeCost: 2 });
const sessions = new SessionService(db, systemClock);
const auth = new AuthService({
  db,
  hasher,
  sessions,
  audit: new AuditService(db, systemClock, pino({ level: 'silent' })),
  accountThrottle: new FailureThrottle(db, systemClock, LOGIN_THROTTLES.account),
  ipThrottle: new FailureThrottle(db, systemClock, LOGIN_THROTTLES.ip),
});
// The tenant whose host Berth's logins are sent to: the bench admin's own.
const { rows } = await sql<{ tenant_id: number }>`select tenant_id from users where email = ${adminEmail}`.execute(db);
const tenantId = rows[0]?.tenant_id;
if (tenantId === undefined) throw new Error(`no user ${adminEmail} in the bench database`);

const app = Fastify({ logger: false });
app.post<{ Body: { email?: unknown; password?: unknown } }>('/', async (request, reply) => {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  try {
    const { user, signIn } = await auth.login({
      email: text(request.body.email),
      password: text(request.body.password),
      tenantId,
      ip: request.ip,
    });
    const { token, row } = sessions.prepare({
      userId: user.id,
      tenantId,
      remember: false,
      twoFactorPending: false,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    await signIn(row);
    reply.header('set-cookie', `session=${token}; Path=/; HttpOnly; SameSite=Lax`);
    return { data: { status: 'authenticated', user: { id: user.id, email: user.email } } };
  } catch {
    return reply.code(422).send({ message: 'sign-in refused' });
  }
});

await listenAsBaseline(app, () => database.close());
