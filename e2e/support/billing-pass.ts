import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/connection.ts';
import { ManualClock } from '../../server/src/lib/clock.ts';
import { JobQueue } from '../../server/src/modules/jobs/queue.ts';

/**
 * A second Berth instance on the spec's PostgreSQL database whose clock says BILLING_AT: it runs one
 * billing pass (modules/billing) as of then and the jobs it queued, and exits. This is how the
 * specs see what weeks of unpaid renewals do without waiting weeks (the rules themselves are tested
 * with the controllable clock in server/src/modules/billing/billing.api.test.ts). Printed: the
 * pass's counts as JSON.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const at = new Date(process.env.BILLING_AT ?? '');
  if (!databaseUrl || Number.isNaN(at.getTime())) throw new Error('DATABASE_URL and BILLING_AT (ISO) are required');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-billing-pass-'));
  const handle = await openDatabase({ databaseUrl, dataDir });
  try {
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      BERTH_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(process.env.SMTP_URL ? { SMTP_URL: process.env.SMTP_URL } : {}),
    });
    const { app, services } = await buildApp({ config, db: handle.db, clock: new ManualClock(at) });
    try {
      const done = await services.billing.runOnce();
      await JobQueue.idleAll();
      process.stdout.write(`${JSON.stringify(done)}\n`);
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
