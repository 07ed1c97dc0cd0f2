import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { createBenchDatabase } from './database.ts';
import { logInOnHost } from './pages.ts';
import { repoRoot, startBerth } from './servers.ts';
const database = await createBenchDatabase();
const berth = await startBerth({ databaseUrl: database.url, adminEmail: 'bench@localhost', adminPassword: 'bench-password-0123456789', argon2MemoryKib: 19456, argon2TimeCost: 2 });
try {
  await promisify(execFile)(process.execPath, ['server/src/cli.ts', 'demo', '--password', 'demo-password-0123456789'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: database.url } });
  const port = new URL(berth.url).port;
  const cookie = await logInOnHost(berth.url, `harbor.localhost:${port}`, (process.env.WHO ?? 'admin') + '@harbor.localhost', 'demo-password-0123456789');
  for (const p of (process.env.PAGES ?? '/dashboard').split(',')) {
    const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'], userDataDir: mkdtempSync(path.join(os.tmpdir(), 'lh-')) });
    if (process.env.JAR) {
      const version = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
      const socket = new WebSocket(version.webSocketDebuggerUrl);
      await new Promise((resolve) => socket.addEventListener('open', resolve));
      const [name, value] = cookie.split('=');
      socket.send(JSON.stringify({ id: 1, method: 'Storage.setCookies', params: { cookies: [{ name, value, domain: 'harbor.localhost', path: '/', httpOnly: true }] } }));
      console.log('set', await new Promise((resolve) => socket.addEventListener('message', (e) => resolve(String(e.data)))));
      socket.close();
    }
    const r = await lighthouse(`http://harbor.localhost:${port}${p}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'best-practices'], ...(process.env.JAR ? {} : { extraHeaders: { cookie } }) });
    await chrome.kill();
    const lhr = r!.lhr;
    console.log(p, 'TBT', lhr.audits['total-blocking-time']?.numericValue, 'perf', lhr.categories.performance?.score, 'bp', lhr.categories['best-practices']?.score, 'CLS', lhr.audits['cumulative-layout-shift']?.numericValue);
    for (const [id, a] of Object.entries(lhr.audits)) if (a.score !== null && a.score < 1 && (lhr.categories['best-practices']?.auditRefs.some((ref) => ref.id === id))) console.log('  BP fail', id, JSON.stringify(a.details)?.slice(0, 800));
    console.log('  layout-shifts', JSON.stringify(lhr.audits['layout-shifts']?.details)?.slice(0, 2500));
  }
} finally { await berth.stop(); await database.drop(); }
