import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { CertificatesTable, PlatformCertificatesTable } from '../../db/schema.ts';

export const findAccount = (db: Db, directoryUrl: string) =>
  db.selectFrom('acme_accounts').selectAll().where('directory_url', '=', directoryUrl).executeTakeFirst();

/** The first account stored for a directory wins; a second instance registering at once keeps the first. */
export const insertAccount = (db: Db, values: { directory_url: string; key_sealed: string; account_url: string; created_at: Date }) =>
  db
    .insertInto('acme_accounts')
    .values(values)
    .onConflict((oc) => oc.column('directory_url').doNothing())
    .execute();

export const findCertificate = (db: Db, domainId: number) =>
  db.selectFrom('certificates').selectAll().where('domain_id', '=', domainId).executeTakeFirst();

export type CertificateRow = NonNullable<Awaited<ReturnType<typeof findCertificate>>>;

/** A domain as a certificate needs it: its name, owner, and whether Berth serves its zone. */
export const domainForCertificate = (db: Db, id: number) =>
  db
    .selectFrom('domains as d')
    .innerJoin('tenants as t', 't.id', 'd.tenant_id')
    .leftJoin('dns_zones as z', 'z.domain_id', 'd.id')
    .select([
      'd.id',
      'd.name',
      'd.tenant_id',
      'd.owner_id',
      'd.web_server_id',
      't.name_servers',
      sql<boolean>`coalesce(z.served, false)`.as('served'),
      sql<string[]>`${siteAliases('d')}`.as('aliases'),
    ])
    .where('d.id', '=', id)
    .executeTakeFirst();

/** The site's aliases of domain `d` (its settings), sorted: what `certificates.aliases` is compared with. */
function siteAliases(d: string) {
  return sql`coalesce(array(select jsonb_array_elements_text(coalesce(${sql.ref(`${d}.settings`)}->'aliases', '[]'::jsonb)) as a order by a), '{}')`;
}

/** An HTTP-01 certificate whose site's aliases changed since its last order (migration 0048). */
const aliasesChanged = (c: string, d: string) =>
  sql<boolean>`(${sql.ref(`${c}.method`)} = 'http-01' and ${sql.ref(`${c}.aliases`)} is distinct from ${siteAliases(d)})`;

/**
 * Whether a certificate row is due: none yet, a failed or pending order whose wait is over, or a
 * valid one at its renewal time or whose site's aliases changed.
 */
const due = (now: Date) =>
  sql<boolean>`(c.domain_id is null or ((c.next_try_at is null or c.next_try_at <= ${now})
    and (c.state <> 'valid' or c.renew_at <= ${now} or ${aliasesChanged('c', 'd')})))`;

/** Domains whose zone Berth serves and whose certificate is due, by id. */
export const dueDomains = (db: Db, q: { now: Date; limit: number }) =>
  db
    .selectFrom('domains as d')
    .innerJoin('dns_zones as z', 'z.domain_id', 'd.id')
    .leftJoin('certificates as c', 'c.domain_id', 'd.id')
    .select(['d.id', 'd.tenant_id'])
    .where('z.served', '=', true)
    .where(due(q.now))
    .orderBy('d.id')
    .limit(q.limit)
    .execute();

/**
 * Claims a due certificate for one order: its `next_try_at` moves to `leaseUntil`, so no other
 * pass or instance orders it meanwhile. True for the one caller that claimed it.
 */
export const claimCertificate = async (
  db: Db,
  domain: { id: number; tenant_id: number },
  now: Date,
  leaseUntil: Date,
  force = false,
): Promise<boolean> => {
  const rows = await db
    .insertInto('certificates')
    .values({ domain_id: domain.id, tenant_id: domain.tenant_id, next_try_at: leaseUntil, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('domain_id')
        .doUpdateSet({ next_try_at: leaseUntil, updated_at: now })
        .where((eb) =>
          // By hand ("renew now") too, an order under way or a failed one's wait is respected: the CA is never hammered.
          force
            ? eb.or([eb('certificates.next_try_at', 'is', null), eb('certificates.next_try_at', '<=', now)])
            : eb.and([
                eb.or([eb('certificates.next_try_at', 'is', null), eb('certificates.next_try_at', '<=', now)]),
                eb.or([
                  eb('certificates.state', '<>', 'valid'),
                  eb('certificates.renew_at', '<=', now),
                  eb.exists(
                    eb
                      .selectFrom('domains as cd')
                      .select(sql`1`.as('one'))
                      .whereRef('cd.id', '=', 'certificates.domain_id')
                      .where(aliasesChanged('certificates', 'cd')),
                  ),
                ]),
              ]),
        ),
    )
    .returning('domain_id')
    .execute();
  return rows.length === 1;
};

/** One's own certificate in place of whatever the domain had: valid, never renewed by the pass. */
export const saveUploaded = (
  db: Db,
  domain: { id: number; tenant_id: number },
  values: Pick<
    Insertable<CertificatesTable>,
    'names' | 'issuer' | 'serial' | 'not_before' | 'not_after' | 'cert_pem' | 'key_sealed' | 'updated_at'
  >,
) => {
  const row = {
    ...values,
    method: 'custom' as const,
    state: 'valid' as const,
    problem: null,
    attempts: 0,
    next_try_at: null,
    renew_at: null,
    warned_for: null,
  };
  return db
    .insertInto('certificates')
    .values({ domain_id: domain.id, tenant_id: domain.tenant_id, ...row })
    .onConflict((oc) => oc.column('domain_id').doUpdateSet(row))
    .execute();
};

export const updateCertificate = (db: Db, domainId: number, values: Updateable<CertificatesTable>) =>
  db.updateTable('certificates').set(values).where('domain_id', '=', domainId).execute();

/** Sets the warning mark once per end date: true for the one caller that set it. */
export const claimExpiryWarning = async (db: Db, domainId: number, notAfter: Date): Promise<boolean> =>
  (
    await db
      .updateTable('certificates')
      .set({ warned_for: notAfter })
      .where('domain_id', '=', domainId)
      .where((eb) => eb.or([eb('warned_for', 'is', null), eb('warned_for', '<>', notAfter)]))
      .returning('domain_id')
      .execute()
  ).length === 1;

export const insertOrder = async (db: Db, values: { domain_id: number | null; names: string[]; started_at: Date }): Promise<number> =>
  (await db.insertInto('acme_orders').values(values).returning('id').executeTakeFirstOrThrow()).id;

export const finishOrder = (db: Db, id: number, outcome: 'valid' | 'failed') =>
  db.updateTable('acme_orders').set({ outcome }).where('id', '=', id).execute();

/** Orders started since `since`, platform-wide (the CA's limit on new orders per account). */
export const ordersSince = async (db: Db, since: Date): Promise<number> =>
  Number(
    (
      await db
        .selectFrom('acme_orders')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('started_at', '>', since)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Certificates issued for a domain since `since`, oldest first (the CA's limit on duplicate certificates). */
export const issuedSince = (db: Db, domainId: number, since: Date) =>
  db
    .selectFrom('acme_orders')
    .select('started_at')
    .where('domain_id', '=', domainId)
    .where('outcome', '=', 'valid')
    .where('started_at', '>', since)
    .orderBy('started_at')
    .execute();

export const insertDnsChallenge = async (db: Db, values: { domain_id: number; name: string; token: string; created_at: Date }) =>
  (await db.insertInto('acme_dns_challenges').values(values).returning('id').executeTakeFirstOrThrow()).id;

export const deleteDnsChallenge = (db: Db, id: number) => db.deleteFrom('acme_dns_challenges').where('id', '=', id).execute();

export const insertHttpChallenge = async (
  db: Db,
  values: { domain_id: number; token: string; key_authorization: string; created_at: Date },
): Promise<number> => (await db.insertInto('acme_http_challenges').values(values).returning('id').executeTakeFirstOrThrow()).id;

export const deleteHttpChallenge = (db: Db, id: number) => db.deleteFrom('acme_http_challenges').where('id', '=', id).execute();

/* ---- revocation of the certificates of deleted domains (migration 0037) ---- */

/** Revocations whose next try is due; after `maxAttempts` the CA's last answer stands. */
export const dueRevocations = (db: Db, q: { now: Date; limit: number; maxAttempts: number }) =>
  db
    .selectFrom('certificate_revocations')
    .select(['id', 'serial', 'cert_pem', 'attempts'])
    .where('revoked_at', 'is', null)
    .where('next_try_at', '<=', q.now)
    .where('attempts', '<', q.maxAttempts)
    .orderBy('next_try_at')
    .limit(q.limit)
    .execute();

/** Claims one try: a pass racing this one finds the next try moved and leaves it. */
export const claimRevocation = async (db: Db, id: number, now: Date, nextTryAt: Date): Promise<boolean> =>
  (
    await db
      .updateTable('certificate_revocations')
      .set((eb) => ({ next_try_at: nextTryAt, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('next_try_at', '<=', now)
      .returning('id')
      .execute()
  ).length === 1;

export const finishRevocation = (db: Db, id: number, outcome: { revoked_at: Date | null; problem: string | null }) =>
  db.updateTable('certificate_revocations').set(outcome).where('id', '=', id).execute();

/** Certificates Berth ordered whose CA's renewal information is due to be asked (RFC 9773). */
export const renewalInfoDue = (db: Db, q: { now: Date; limit: number }) =>
  db
    .selectFrom('certificates')
    .select(['domain_id', 'cert_pem', 'renew_at'])
    .where('state', '=', 'valid')
    .where('method', 'in', ['dns-01', 'http-01'])
    .where('cert_pem', 'is not', null)
    .where((eb) => eb.or([eb('renewal_info_at', 'is', null), eb('renewal_info_at', '<=', q.now)]))
    .orderBy('renewal_info_at', (ob) => ob.asc().nullsFirst())
    .limit(q.limit)
    .execute();

/** Takes the question for one certificate until `leaseUntil`: true for the one pass that took it. */
export const claimRenewalInfo = async (db: Db, domainId: number, now: Date, leaseUntil: Date): Promise<boolean> =>
  (
    await db
      .updateTable('certificates')
      .set({ renewal_info_at: leaseUntil })
      .where('domain_id', '=', domainId)
      .where((eb) => eb.or([eb('renewal_info_at', 'is', null), eb('renewal_info_at', '<=', now)]))
      .returning('domain_id')
      .execute()
  ).length === 1;

/* ---- the panel's own certificate (migration 0049) ---- */

export const findPlatformCertificate = (db: Db) => db.selectFrom('platform_certificates').selectAll().executeTakeFirst();

export type PlatformCertificateRow = NonNullable<Awaited<ReturnType<typeof findPlatformCertificate>>>;

/**
 * Claims the panel's certificate for one order when it is due: none yet, a failed order's wait
 * over, at its renewal time, or other names wanted than it has. True for the one caller that claimed it.
 */
export const claimPlatformCertificate = async (db: Db, names: string[], now: Date, leaseUntil: Date): Promise<boolean> =>
  (
    await db
      .insertInto('platform_certificates')
      .values({ id: 1, next_try_at: leaseUntil, updated_at: now })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ next_try_at: leaseUntil, updated_at: now })
          .where((eb) =>
            eb.and([
              eb.or([eb('platform_certificates.next_try_at', 'is', null), eb('platform_certificates.next_try_at', '<=', now)]),
              eb.or([
                eb('platform_certificates.state', '<>', 'valid'),
                eb('platform_certificates.renew_at', '<=', now),
                sql<boolean>`platform_certificates.names is distinct from ${sql.val(names)}::text[]`,
              ]),
            ]),
          ),
      )
      .returning('id')
      .execute()
  ).length === 1;

export const updatePlatformCertificate = (db: Db, values: Updateable<PlatformCertificatesTable>) =>
  db.updateTable('platform_certificates').set(values).where('id', '=', 1).execute();

/** Certificates issued for the panel's own names since `since`, oldest first (the CA's limit on duplicates). */
export const platformIssuedSince = (db: Db, since: Date) =>
  db
    .selectFrom('acme_orders')
    .select('started_at')
    .where('domain_id', 'is', null)
    .where('outcome', '=', 'valid')
    .where('started_at', '>', since)
    .orderBy('started_at')
    .execute();

/** The zone Berth serves that holds `host` (the longest such domain), with its tenant's name servers. */
export const servedZoneOf = (db: Db, host: string) =>
  db
    .selectFrom('domains as d')
    .innerJoin('dns_zones as z', 'z.domain_id', 'd.id')
    .innerJoin('tenants as t', 't.id', 'd.tenant_id')
    .select(['d.id', 'd.name', 't.name_servers'])
    .where('z.served', '=', true)
    .where(sql<boolean>`(d.name = ${host} or right(${host}, length(d.name) + 1) = '.' || d.name)`)
    .orderBy(sql`length(d.name)`, 'desc')
    .limit(1)
    .executeTakeFirst();

export const insertPlatformHttpChallenge = async (
  db: Db,
  values: { name: string; token: string; key_authorization: string; created_at: Date },
): Promise<number> => (await db.insertInto('acme_platform_challenges').values(values).returning('id').executeTakeFirstOrThrow()).id;

export const deletePlatformHttpChallenge = (db: Db, id: number) => db.deleteFrom('acme_platform_challenges').where('id', '=', id).execute();
