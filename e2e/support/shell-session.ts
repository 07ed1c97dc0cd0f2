import { request as httpRequest } from 'node:http';
import type { BrowserContext } from '@playwright/test';
import { SEED_PASSWORD } from './shell-server.ts';

/**
 * Signs in through the API, not the login screen (docs/architecture.md: only the login specs use the
 * screen). The request goes to the loopback address with the tenant's Host header, and the
 * session cookie it answers with is given to the browser for that host.
 */
export async function signIn(context: BrowserContext, origin: string, email: string, password: string = SEED_PASSWORD): Promise<void> {
  const url = new URL(origin);
  const body = JSON.stringify({ email, password, remember: true });
  const { status, cookie, text } = await new Promise<{ status: number; cookie: string | undefined; text: string }>((resolve, reject) => {
    const call = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        path: '/api/login',
        method: 'POST',
        headers: {
          host: url.host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          accept: 'application/json',
        },
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () => {
          const setCookie = response.headers['set-cookie']?.find((line) => line.startsWith('berth_session='));
          resolve({ status: response.statusCode ?? 0, cookie: setCookie, text: answer });
        });
      },
    );
    call.once('error', reject);
    call.end(body);
  });
  const token = cookie?.slice('berth_session='.length).split(';')[0];
  if (status !== 200 || !token) throw new Error(`logging in ${email} at ${origin} failed: ${status} ${text}`);
  await context.addCookies([{ name: 'berth_session', value: token, url: url.origin, httpOnly: true, sameSite: 'Lax' }]);
}
