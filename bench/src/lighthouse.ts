// Lighthouse (from the npm registry) driving Debian's Chromium, with its default mobile profile:
// simulated slow 4G and a 4x CPU slowdown. One audit per page, each in a fresh browser profile.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Chromium as root in a sandbox-less container; without the background-networking flags it
// tries Google's hosts at every start, which this machine's closed network refuses.
const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface PageAudit {
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Bytes over the wire (compressed where the server compressed). */
  transferBytes: number;
  requests: number;
  /** JavaScript requested by the page's first load, over the wire. */
  scriptBytes: number;
}

interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

/**
 * The session cookie in the browser's own jar, as a signed-in visitor has it. Lighthouse's
 * `extraHeaders` would send it with the page only, not with the app's own API calls: those then
 * answered 401, and the error shown moved the page (a CLS and a console error of the bench's making).
 */
async function setCookie(port: number, domain: string, cookie: string): Promise<void> {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve);
    socket.addEventListener('error', reject);
  });
  try {
    const [name = '', ...rest] = cookie.split('=');
    const answer = new Promise<string>((resolve) => socket.addEventListener('message', (event) => resolve(String(event.data))));
    socket.send(
      JSON.stringify({
        id: 1,
        method: 'Storage.setCookies',
        params: { cookies: [{ name, value: rest.join('='), domain, path: '/', httpOnly: true, sameSite: 'Lax' }] },
      }),
    );
    const reply = JSON.parse(await answer) as { error?: { message: string } };
    if (reply.error) throw new Error(`setting the session cookie: ${reply.error.message}`);
  } finally {
    socket.close();
  }
}

/** Lighthouse now and then loses the trace of a load (NO_NAVSTART): one more try before giving up. */
export async function auditPage(url: string, options: { cookie?: string } = {}): Promise<PageAudit> {
  try {
    return await auditOnce(url, options);
  } catch (error) {
    process.stderr.write(`lighthouse: ${error instanceof Error ? error.message : String(error)}; trying once more\n`);
    return auditOnce(url, options);
  }
}

async function auditOnce(url: string, options: { cookie?: string }): Promise<PageAudit> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'berth-lighthouse-'));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, userDataDir: profile });
  try {
    if (options.cookie) await setCookie(chrome.port, new URL(url).hostname, options.cookie);
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] },
      undefined,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const details = lhr.audits['network-requests']?.details as { items?: NetworkRequest[] } | undefined;
    const requests = details?.items ?? [];
    return {
      url,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      fcpMs: numeric('first-contentful-paint'),
      lcpMs: numeric('largest-contentful-paint'),
      tbtMs: numeric('total-blocking-time'),
      cls: numeric('cumulative-layout-shift'),
      transferBytes: requests.reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
      requests: requests.length,
      scriptBytes: requests.filter((request) => request.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    };
  } finally {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  }
}
