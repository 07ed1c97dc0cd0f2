import { describe, expect, it } from 'vitest';
import { checkedEntries, renderMain, renderSites } from './nginx.ts';
import { testLayout, testSite } from './test-sites.ts';

const layout = testLayout;
const site = testSite;

describe("each site's certificate at the handshake", () => {
  it('lists the sites with their own certificate by name, with the serial their files hold', () => {
    const text = renderSites([
      site(3, 'shop.example', '/srv/berth/web/certificates/3', '0A1B'),
      site(4, 'plain.example'),
      site(5, 'blog.shop.example', '/srv/berth/web/certificates/5', 'FF'),
    ]);
    expect(text).toContain(
      [
        'init_by_lua_block {',
        '  berth_tls = {',
        '    ["shop.example"] = "/srv/berth/web/certificates/3", -- serial 0A1B',
        '    ["blog.shop.example"] = "/srv/berth/web/certificates/5", -- serial FF',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(text).not.toContain('plain.example"');
  });

  it('changes the sites file when a renewed certificate has a new serial, so the reload reads it again', () => {
    const before = renderSites([site(3, 'shop.example', '/srv/berth/web/certificates/3', '0A')]);
    const after = renderSites([site(3, 'shop.example', '/srv/berth/web/certificates/3', '0B')]);
    expect(after).not.toBe(before);
  });

  it('refuses a serial or a path that could end the Lua string or the block', () => {
    for (const tlsSerial of ['0A"', '0A\n}', 'zz', '0A -- x'])
      expect(() => checkedEntries(site(3, 'shop.example', '/srv/berth/web/certificates/3', tlsSerial))).toThrow(/hexadecimal/);
    for (const tls of ['/srv/berth/web/certificates/3"', '/srv/berth/web/{x}', '/srv/berth/../etc/3'])
      expect(() => checkedEntries(site(3, 'shop.example', tls, '0A'))).toThrow(/nginx would read as syntax/);
    // Entries of an agent from before serials were kept: none, and no certificate means no serial.
    expect(checkedEntries({ ...site(3, 'shop.example', '/srv/berth/web/certificates/3'), tlsSerial: undefined }).tlsSerial).toBeNull();
    expect(checkedEntries(site(3, 'shop.example', null, '0A')).tlsSerial).toBeNull();
  });

  it("starts nginx with the default certificate and picks a site's by Lua, with the modules loaded first", () => {
    const text = renderMain(layout, '/srv/berth/web/sites.conf', 10);
    const lines = text.split('\n');
    expect(lines[0]).toBe('load_module /usr/lib/nginx/modules/ndk_http_module.so;');
    expect(lines[1]).toBe('load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;');
    expect(text).toContain('    ssl_certificate /srv/berth/web/certificates/default.crt;\n');
    expect(text).toContain('    ssl_certificate_key /srv/berth/web/certificates/default.key;\n');
    expect(text).toContain('    ssl_certificate_by_lua_block {\n');
    // Nothing is named by a variable any more: nginx would parse it at every handshake.
    expect(text).not.toMatch(/ssl_certificate(_key)? \$/);
  });
});
