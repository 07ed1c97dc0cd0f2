import { describe, expect, it } from 'vitest';
import { renderRoundcubeConfig } from './webmail.ts';

describe("Roundcube's configuration", () => {
  const base = {
    dsn: "pgsql://berth_webmail_test:pa'ss\\word@127.0.0.1:5432/test",
    imap: '127.0.0.1:1143',
    smtp: 'tls://127.0.0.1:2587',
    desKey: 'k'.repeat(32),
    tempDir: '/srv/berth/web/roundcube/temp',
    logDir: '/srv/berth/web/roundcube/logs',
  };

  it('writes every value as a PHP string that ends where it should', () => {
    const text = renderRoundcubeConfig(base);
    expect(text).toContain("$config['db_dsnw'] = 'pgsql://berth_webmail_test:pa\\'ss\\\\word@127.0.0.1:5432/test';");
    expect(text).toContain("$config['imap_host'] = '127.0.0.1:1143';");
    // Loopback: the mail host's certificate names the mail host, not 127.0.0.1.
    expect(text).toContain("$config['smtp_conn_options'] = ['ssl' => ['verify_peer' => false, 'verify_peer_name' => false]];");
  });

  it('checks the certificate of a mail host that is not on loopback', () => {
    const text = renderRoundcubeConfig({ ...base, imap: 'ssl://mail.example.net:993', smtp: 'tls://mail.example.net:587' });
    expect(text).toContain("$config['imap_conn_options'] = null;");
    expect(text).toContain("$config['smtp_conn_options'] = null;");
  });

  it.each(["127.0.0.1:1143';phpinfo();//", '127.0.0.1:1143\n$x=1', 'ssl://mail.example.net', 'ftp://mail.example.net:21', '../etc:1'])(
    'refuses %j as a mail server',
    (imap) => {
      expect(() => renderRoundcubeConfig({ ...base, imap })).toThrow(/not a Roundcube server/);
    },
  );
});
