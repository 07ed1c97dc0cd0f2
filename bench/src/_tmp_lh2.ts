import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createBenchDatabase } from './database.ts';
import { auditPage } from './lighthouse.ts';
import { logInOnHost } from './pages.ts';
import { repoRoot, startBerth } from './servers.ts';
const database = await createBenchDatabase();
const berth = await startBerth({ databaseUrl: database.url, adminEmail: 'bench@localhost', adminPassword: 'bench-password-0123456789', argon2MemoryKib: 19456, argon2TimeCost: 2 });
try {
  await promisify(execFile)(process.execPath, ['server/src/cli.ts', 'demo', '--password', 'demo-password-0123456789'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: database.url } });
  const port = new URL(berth.url).port;
  const cookie = await logInOnHost(berth.url, `harbor.localhost:${port}`, 'admin@harbor.localhost', 'demo-password-0123456789');
  for (const [p, signed] of [['/login', false], ['/dashboard', true], ['/host/domain', true]] as const) {
    const a = await auditPage(`http://harbor.localhost:${port}${p}`, signed ? { cookie } : {});
    console.log(p, JSON.stringify({ perf: a.performance, bp: a.bestPractices, a11y: a.accessibility, cls: a.cls, lcp: a.lcpMs, fcp: a.fcpMs, tbt: a.tbtMs }));
  }
} finally { await berth.stop(); await database.drop(); }
