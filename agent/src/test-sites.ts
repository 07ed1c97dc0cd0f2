import type { SiteEntries, WebLayout } from './nginx.ts';

/** A web server's layout and a site's entries as the agent's unit tests render them. */
export const testLayout: WebLayout = {
  runDir: '/srv/berth/web',
  webRoot: '/srv/berth/www',
  address: '127.0.0.1',
  httpPort: 80,
  httpsPort: 443,
  workerUser: 'www-data',
};

export const testSite = (siteId: number, name: string, tls: string | null = null, tlsSerial: string | null = null): SiteEntries => ({
  siteId,
  revision: '1',
  hosts: [name, `www.${name}`],
  redirects: [],
  root: `/srv/berth/www/7/${name}/public_html`,
  kind: 'static',
  php: null,
  tls,
  tlsSerial,
  toHttps: false,
  hsts: false,
});
