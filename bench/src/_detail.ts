import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new','--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const r = await lighthouse(process.argv[2]!, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance','best-practices'], ...(process.argv[3] ? { extraHeaders: { cookie: process.argv[3] } } : {}) });
chrome.kill();
const lhr = r!.lhr;
for (const cat of Object.values(lhr.categories)) for (const ref of cat.auditRefs) { const a = lhr.audits[ref.id]!; if (a.score !== null && a.score < 0.9 ) console.log(cat.id, ref.id, a.score, a.displayValue ?? ''); }
const items = (lhr.audits['network-requests']!.details as any).items;
for (const i of items) console.log(Math.round(i.transferSize/1024)+'K', Math.round(i.networkRequestTime), Math.round(i.networkEndTime), i.url.replace(/.*\/\/[^/]+/,''));
console.log((lhr.audits['errors-in-console']!.details as any)?.items?.map((i:any)=>i.description));
