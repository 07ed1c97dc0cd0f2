import type pg from 'pg';

/** The agent's SQL: it reads the schema `web` and writes its own status rows (migration 0030), nothing else. */

export async function serverIdOf(pool: pg.Pool, name: string): Promise<number | undefined> {
  const { rows } = await pool.query<{ id: number }>('select id from web.servers where name = $1', [name]);
  return rows[0]?.id;
}

export async function sitesOf(pool: pg.Pool, serverId: number): Promise<Record<string, unknown>[]> {
  return (await pool.query<Record<string, unknown>>('select * from web.sites where server_id = $1', [serverId])).rows;
}

/** The certificates in use of these sites of this server: chain and key (sealed), by serial. */
export interface SiteCertificateRow {
  site_id: number;
  serial: string;
  cert_pem: string;
  key_sealed: string;
  /** `dns-01` or `http-01`: ordered by Berth from its CA; `custom`: uploaded by the customer. */
  method: string;
}

export async function certificatesOf(pool: pg.Pool, serverId: number, siteIds: number[]): Promise<SiteCertificateRow[]> {
  return (
    await pool.query<SiteCertificateRow>(
      'select site_id, serial, cert_pem, key_sealed, method from web.certificates where server_id = $1 and site_id = any($2::int[])',
      [serverId, siteIds],
    )
  ).rows;
}

/** The panel's own certificate in use (migration 0049): every web server's default. */
export async function platformCertificate(pool: pg.Pool): Promise<{ serial: string; cert_pem: string; key_sealed: string } | undefined> {
  return (
    await pool.query<{ serial: string; cert_pem: string; key_sealed: string }>(
      'select serial, cert_pem, key_sealed from web.platform_certificate limit 1',
    )
  ).rows[0];
}

export async function reportSite(
  pool: pg.Pool,
  status: { siteId: number; serverId: number; revision: string; error: string | undefined; note: string },
): Promise<void> {
  await pool.query(
    `insert into web.site_status (site_id, server_id, revision, state, error, note, applied_at)
     values ($1, $2, $3, $4, $5, $6, now())
     on conflict (site_id) do update set server_id = excluded.server_id, revision = excluded.revision,
       state = excluded.state, error = excluded.error, note = excluded.note, applied_at = excluded.applied_at`,
    [status.siteId, status.serverId, status.revision, status.error ? 'error' : 'live', status.error ?? '', status.note],
  );
}

/** The FTP login of this server's sites (the schema `ftp`, migrations 0030 and 0031), or undefined. */
export async function ftpLogin(
  client: pg.Client,
  login: string,
  serverId: number,
): Promise<{ password_hash: string; owner_id: number; site: string; quota_bytes: string | null } | undefined> {
  const { rows } = await client.query<{ password_hash: string; owner_id: number; site: string; quota_bytes: string | null }>(
    'select password_hash, owner_id, site, quota_bytes from ftp.users where login = $1 and server_id = $2',
    [login, serverId],
  );
  return rows[0];
}

/** What each site's folder holds (du), on the status rows the agent already wrote. */
export async function reportDisk(pool: pg.Pool, serverId: number, sizes: Map<number, number>): Promise<void> {
  if (sizes.size === 0) return;
  await pool.query(
    `update web.site_status s set disk_bytes = m.bytes, disk_measured_at = now()
       from unnest($1::integer[], $2::bigint[]) as m(site_id, bytes)
      where s.site_id = m.site_id and s.server_id = $3`,
    [[...sizes.keys()], [...sizes.values()], serverId],
  );
}

/** The last lines of a site's access and error logs, newest first. */
export async function reportLogs(pool: pg.Pool, serverId: number, siteId: number, access: string[], error: string[]): Promise<void> {
  await pool.query(
    `insert into web.site_logs (site_id, server_id, access, error, updated_at) values ($1, $2, $3, $4, now())
     on conflict (site_id) do update set server_id = excluded.server_id, access = excluded.access, error = excluded.error,
       updated_at = excluded.updated_at`,
    [siteId, serverId, access, error],
  );
}

/** What this web server has: its PHP versions, which the panel offers (migration 0031). */
export async function reportServer(pool: pg.Pool, serverId: number, phpVersions: string[]): Promise<void> {
  await pool.query(
    `insert into web.server_status (server_id, php_versions, reported_at) values ($1, $2, now())
     on conflict (server_id) do update set php_versions = excluded.php_versions, reported_at = excluded.reported_at`,
    [serverId, phpVersions],
  );
}

/** The key authorization a CA's HTTP-01 question for `host` (the name, its www. or an alias) and `token` gets, if an order waits for it. */
export async function acmeAnswer(pool: pg.Pool, serverId: number, host: string, token: string): Promise<string | undefined> {
  // A site's own names on this server, or the panel's names on every server (migration 0049).
  const { rows } = await pool.query<{ key_authorization: string }>(
    `select key_authorization from web.acme_challenges
     where server_id = $1 and token = $2
       and (name = $3 or 'www.' || name = $3 or exists (select 1 from unnest(aliases) a where a || '.' || name = $3))
     union all
     select key_authorization from web.acme_platform_challenges where token = $2 and name = $3
     limit 1`,
    [serverId, token, host],
  );
  return rows[0]?.key_authorization;
}

/** The mail domains whose site this server serves: it answers `webmail.<domain>` too (migration 0045). */
export async function webmailDomainsOf(pool: pg.Pool, serverId: number): Promise<string[]> {
  return (
    await pool.query<{ domain: string }>('select domain from web.webmail_domains where server_id = $1 order by domain', [serverId])
  ).rows.map((row) => row.domain);
}
