import { chromium } from '@playwright/test';
import { writeFileSync } from 'node:fs';
const [url, cookie] = [process.argv[2]!, process.argv[3]];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
if (cookie) { const [n, v] = cookie.split('='); await context.addCookies([{ name: n!, value: v!, url }]); }
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
const t0 = Date.now();
await page.goto(url, { waitUntil: 'networkidle' });
console.log('loaded in', Date.now() - t0, 'ms');
const { profile } = await cdp.send('Profiler.stop');
writeFileSync('/tmp/page.cpuprofile', JSON.stringify(profile));
await browser.close();
