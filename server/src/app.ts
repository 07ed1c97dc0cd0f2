import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/connection.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { PasswordHasher } from './lib/password.ts';
import { registerRequestContext } from './http/context.ts';
import { registerCsrfProtection } from './http/csrf.ts';
import { registerErrorHandler } from './http/errors.ts';
import { loggerOptions } from './http/logging.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { defaultWebDistDir, registerWebApp } from './http/web-app.ts';
import { AuditService } from './modules/audit/service.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { AuthService } from './modules/auth/service.ts';
import { FailureThrottle } from './modules/auth/throttle.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { SessionService } from './modules/sessions/service.ts';
import { tenantRoutes } from './modules/tenants/routes.ts';
import { TenantResolver } from './modules/tenants/service.ts';
import { userRoutes } from './modules/users/routes.ts';

export interface AppOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /** A logger to use instead of building one from config (tests pass a silent one). */
  logger?: FastifyBaseLogger;
  webDistDir?: string;
}

export interface Services {
  clock: Clock;
  hasher: PasswordHasher;
  sessions: SessionService;
  tenants: TenantResolver;
  audit: AuditService;
  auth: AuthService;
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Builds the whole HTTP app without listening: main.ts listens, tests inject. */
export async function buildApp(options: AppOptions): Promise<{ app: FastifyInstance; services: Services }> {
  const { config, db } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(config.LOG_LEVEL) }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const hasher = new PasswordHasher({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST });
  const sessions = new SessionService(db, clock);
  const tenants = new TenantResolver(db, clock);
  const audit = new AuditService(db, clock, app.log);
  const auth = new AuthService({
    db,
    hasher,
    sessions,
    audit,
    accountThrottle: new FailureThrottle(clock, { limit: 5, windowMs: FIFTEEN_MINUTES }),
    ipThrottle: new FailureThrottle(clock, { limit: 100, windowMs: FIFTEEN_MINUTES }),
  });

  await app.register(cookie);
  await registerSecurityHeaders(app);
  registerErrorHandler(app);
  registerRequestContext(app, { tenants, sessions });
  registerCsrfProtection(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Berth API', version: '0.1.0', description: 'Hosting and domain administration panel' },
      servers: [{ url: '/' }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(
    async (api) => {
      await api.register(healthRoutes(db));
      await api.register(tenantRoutes);
      await api.register(authRoutes(auth));
      await api.register(userRoutes);
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, options.webDistDir ?? defaultWebDistDir);
  return { app, services: { clock, hasher, sessions, tenants, audit, auth } };
}
