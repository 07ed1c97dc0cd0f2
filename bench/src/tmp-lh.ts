import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
const url = process.argv[2]!;
const cookie = process.argv[3];
const profile = mkdtempSync(path.join(os.tmpdir(), 'lh-'));
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new','--no-sandbox','--disable-gpu','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'], userDataDir: profile });
const r = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], ...(cookie ? { extraHeaders: { cookie } } : {}) });
chrome.kill();
const lhr = r!.lhr;
writeFileSync('/tmp/lhr.json', JSON.stringify(lhr));
console.log('perf', lhr.categories.performance.score, 'FCP', lhr.audits['first-contentful-paint'].numericValue, 'LCP', lhr.audits['largest-contentful-paint'].numericValue, 'TBT', lhr.audits['total-blocking-time'].numericValue, 'SI', lhr.audits['speed-index'].numericValue);
const items = (lhr.audits['network-requests'].details as any).items;
let tot = 0; for (const i of items) { tot += i.transferSize; console.log(String(i.transferSize).padStart(8), i.resourceType, String(Math.round(i.networkRequestTime)).padStart(6), String(Math.round(i.networkEndTime)).padStart(6), i.url.replace(/^https?:\/\/[^/]+/, '')); }
console.log('total', tot);
