import { describe, expect, it } from 'vitest';
import { renderSites } from './nginx.ts';
import { testLayout, testSite } from './test-sites.ts';
import { renderWebmailPool } from './webmail.ts';

const layout = testLayout;
const site = (siteId: number, name: string) => testSite(siteId, name);
const webmail = {
  hosts: ['webmail.panel.example', 'webmail.shop.example'],
  root: '/var/lib/roundcube/public_html',
  php: '/srv/berth/web/php8.2/webmail.sock',
};

describe('webmail in the sites maps', () => {
  it('answers its names with Roundcube through its own pool, over HTTPS only', () => {
    const text = renderSites([site(3, 'shop.example')], webmail);
    expect(text).toContain('  webmail.panel.example webmail;\n');
    expect(text).toContain('  webmail.shop.example webmail;\n');
    expect(text).toContain('  webmail /var/lib/roundcube/public_html;\n');
    expect(text).toContain('  webmail php;\n');
    expect(text).toContain('  webmail unix:/srv/berth/web/php8.2/webmail.sock;\n');
    // In the map of what HTTP sends on to HTTPS.
    expect(text).toMatch(/map \$berth_site \$berth_to_https \{\n {2}default "";\n {2}webmail 1;\n\}/);
  });

  it("leaves a customer's own site named webmail.<domain> theirs, and drops names that are not host names", () => {
    const text = renderSites([site(3, 'shop.example'), site(4, 'webmail.shop.example')], {
      ...webmail,
      hosts: [...webmail.hosts, 'webmail.bad;name', 'webmail.x\n}'],
    });
    expect(text).toContain('  webmail.shop.example 4;\n');
    expect(text).not.toContain('webmail.shop.example webmail;');
    expect(text).toContain('  webmail.panel.example webmail;\n');
    expect(text).not.toContain('bad;name');
    expect(text).not.toContain('webmail.x');
  });

  it('refuses a folder or socket nginx would read as syntax', () => {
    expect(() => renderSites([], { ...webmail, root: '/var/lib/roundcube;evil' })).toThrow(/nginx would read as syntax/);
    expect(() => renderSites([], { ...webmail, php: '/srv/../etc/sock' })).toThrow(/nginx would read as syntax/);
  });

  it("runs Roundcube's PHP as its own user with its configuration folder", () => {
    const pool = renderWebmailPool(layout, '8.2', {
      host: 'webmail.panel.example',
      root: '/var/lib/roundcube/public_html',
      configDir: '/srv/berth/web/roundcube',
      user: 'berthwebmail',
    });
    expect(pool).toContain('user = berthwebmail\n');
    expect(pool).toContain('listen.owner = www-data\n');
    expect(pool).toContain('env[ROUNDCUBE_CONFIG_DIR] = /srv/berth/web/roundcube\n');
    expect(pool).toContain('listen = /srv/berth/web/php8.2/webmail.sock\n');
  });
});
