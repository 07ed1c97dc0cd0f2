import { mkdirSync } from 'node:fs';
import { runAdminCommand } from './admin-commands.ts';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { DataDirBusyError, DataDirLock } from './db/data-dir-lock.ts';
import { openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import { startMailLimitsJob } from './modules/mail-limits/service.ts';
import { startDkimRotationJob } from './modules/dns/service.ts';
import { buildApp } from './app.ts';
import { ensureOperator, firstAdminBanner } from './modules/tenants/bootstrap.ts';
import { startSweeper } from './modules/sessions/sweeper.ts';
import { startExpiryJob } from './modules/expiry/service.ts';
import { startBillingJob } from './modules/billing/service.ts';
import { startCertificateJob } from './modules/certificates/service.ts';

async function start(config: Config): Promise<void> {
  // The embedded database is this process's alone (data-dir-lock.ts); a second one stops here.
  let lock: DataDirLock | undefined;
  if (!config.DATABASE_URL) {
    mkdirSync(config.BERTH_DATA_DIR, { recursive: true });
    lock = await DataDirLock.acquire(config.BERTH_DATA_DIR);
  }
  let logConnectionError = (error: Error): void => void process.stderr.write(`database connection: ${error.message}\n`);
  const handle = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.BERTH_DATA_DIR,
    onConnectionError: (error) => logConnectionError(error),
  });
  const applied = await migrateToLatest(handle.db);
  const { app, services } = await buildApp({ config, db: handle.db });
  app.log.info({ database: handle.kind, applied }, 'database migrated');
  logConnectionError = (error) => app.log.warn({ message: error.message }, 'database connection lost; the pool reconnects');
  // A stray rejection (a background job, a library) is logged; it never takes the server down.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'));
  const sweeper = startSweeper(handle.db, services.clock, app.log);
  app.addHook('onClose', async () => clearInterval(sweeper));
  const expiryJob = startExpiryJob(services.expiry, services.clock, app.log);
  app.addHook('onClose', async () => expiryJob.stop());
  if (config.BILLING_EVERY_MINUTES > 0) {
    const billingJob = startBillingJob(services.billing, app.log, { everyMs: config.BILLING_EVERY_MINUTES * 60_000 });
    app.addHook('onClose', async () => billingJob.stop());
  }
  if (services.certificates.enabled && config.CERTIFICATES_EVERY_SECONDS > 0) {
    const certificateJob = startCertificateJob(services.certificates, app.log, {
      everyMs: config.CERTIFICATES_EVERY_SECONDS * 1000,
      databaseUrl: config.DATABASE_URL,
    });
    app.addHook('onClose', async () => certificateJob.stop());
  }

  const mailLimitsJob = startMailLimitsJob(services.mailLimits, app.log);
  app.addHook('onClose', async () => mailLimitsJob.stop());
  const dkimRotationJob = startDkimRotationJob(services.dns, app.log);
  app.addHook('onClose', async () => dkimRotationJob.stop());

  const resealed = await services.twoFactor.sealStoredSeeds();
  if (resealed) app.log.info({ resealed }, 'two-factor seeds sealed under the current key');
  const dkim = await services.dns.sealDkimKeys();
  if (dkim.sealed) app.log.info({ sealed: dkim.sealed }, 'DKIM keys sealed for the signer');
  if (dkim.unreadable)
    app.log.warn({ unreadable: dkim.unreadable }, 'DKIM keys sealed under a key this server does not hold: left as they are');
  lock?.serve((request) => runAdminCommand({ handle, hasher: services.hasher, clock: services.clock, config }, request));

  const admin = await ensureOperator(handle.db, services.hasher, services.clock, {
    adminEmail: config.BERTH_ADMIN_EMAIL,
    adminPassword: config.BERTH_ADMIN_PASSWORD,
    publicUrl: config.BERTH_PUBLIC_URL,
  });
  const localUrl = `http://localhost:${config.PORT}`;
  if (admin) process.stdout.write(firstAdminBanner(admin, config.BERTH_PUBLIC_URL ?? localUrl));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await app.close();
      await handle.close();
      await lock?.release();
      app.log.info('shut down cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info({ url: localUrl, database: handle.kind }, 'Berth is listening');
}

try {
  await start(loadConfig());
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  if (error instanceof DataDirBusyError) {
    process.stderr.write(`Berth cannot start: ${error.message}\n`);
    process.exit(75);
  }
  process.stderr.write(`Berth failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
