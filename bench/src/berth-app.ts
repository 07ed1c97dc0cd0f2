import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../server/src/app.ts';
import { benchAppConfig } from './database.ts';
import type { Db } from '../../server/src/db/connection.ts';
import type { SecretBox } from '../../server/src/lib/secret-box.ts';
import { ensureOperator } from '../../server/src/modules/tenants/bootstrap.ts';

const ADMIN = { email: 'bench@localhost', password: 'bench-password-0123456789' };

export interface BenchApp {
  /** One API call as the signed-in super admin; throws unless it answers `expect`. */
  call(method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object, expect: number): Promise<{ data: { id: number } }>;
  /** The app's secret box (a web agent beside it gets the key derived for certificate keys). */
  secrets: SecretBox;
  /** The app's services (a bench runs one of its background passes). */
  services: Awaited<ReturnType<typeof buildApp>>['services'];
  log: FastifyBaseLogger;
  close(): Promise<void>;
}

/** Berth's app in-process on a migrated bench database, signed in as its first super admin. */
export async function startBenchApp(db: Db, databaseUrl: string, env: Record<string, string> = {}): Promise<BenchApp> {
  const config = benchAppConfig(databaseUrl, env);
  const { app, services } = await buildApp({ config, db, logger: pino({ level: 'silent' }), webDistDir: '/nonexistent' });
  await ensureOperator(db, services.hasher, services.clock, {
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    publicUrl: undefined,
  });
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { ...ADMIN, remember: true } });
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return {
    call: async (method, url, payload, expect) => {
      const answer = await app.inject({ method, url, payload, headers: { cookie } });
      if (answer.statusCode !== expect) throw new Error(`${method} ${url} answered ${answer.statusCode}: ${answer.body}`);
      return answer.json();
    },
    secrets: services.secrets,
    services,
    log: app.log,
    close: () => app.close(),
  };
}
