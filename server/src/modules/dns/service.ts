import type { FastifyBaseLogger } from 'fastify';
import type { Dnssec, DnsRecord, DnsRecordPayload, MailRecords, Soa } from '@berth/contracts';
import { DNS_RECORDS_PER_ZONE_MAX, DNS_TTL_DEFAULT, DNS_TTL_MAX, DNS_TTL_MIN } from '@berth/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { DnsRecordsTable, DomainsTable } from '../../db/schema.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { DomainDirectory } from '../domains/service.ts';
import { iso } from '../tenants/scope.ts';
import { startPeriodic } from '../../lib/periodic.ts';
import type { UserRow } from '../users/queries.ts';
import {
  bumpZoneSerial,
  countRecords,
  deleteRecord,
  findRecord,
  findZone,
  insertRecord,
  insertRecords,
  insertZone,
  listRecords,
  recordsAtName,
  tenantNameServers,
  updateRecord,
  deleteSigningKeys,
  insertSigningKey,
  listSigningKeys,
  findDkimKey,
  listDkimPrivateKeys,
  resealDkimKey,
  startDkimRotation,
  dueDkimRotations,
  switchDkimKey,
  forgetOldDkimKey,
  insertDkimKey,
} from './queries.ts';
import { DKIM_KEYS_PURPOSE, dkimRecordName, dkimRecordText, newDkimKey, type DkimKeyPair } from './dkim.ts';
import { mailChecks } from './mail-checks.ts';
import { CSK_FLAGS, dsOf, newSigningKey } from './dnssec.ts';
import { fqdnOf, validateRecord, type ValidRecord } from './records.ts';
import { dailySerialBase, nextSerial, soaOf } from './zone.ts';
import { defaultZoneRecords, type ZoneDefaults } from './default-zone.ts';
import { parseZoneFile, type ImportProblem } from './zone-import.ts';

type DomainRow = Selectable<DomainsTable>;
type RecordRow = Selectable<DnsRecordsTable>;

const present = (row: RecordRow, zone: string): DnsRecord => ({
  id: row.id,
  name: row.name,
  fqdn: fqdnOf(row.name, zone),
  type: row.type,
  content: row.content,
  ttl: row.ttl,
  priority: row.priority,
  disabled: row.disabled,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** A DKIM key made before the transaction that stores it (key generation takes tens of milliseconds). */
export interface NewDkimKey extends DkimKeyPair {
  sealedPrivateKey: string;
}

/** A fresh DKIM key with its private half sealed for the signer, ready for createDefaultZone or the DKIM action. */
export async function sealedDkimKey(secrets: SecretBox, now: Date): Promise<NewDkimKey> {
  const key = await newDkimKey(now);
  return { ...key, sealedPrivateKey: secrets.derive(DKIM_KEYS_PURPOSE).seal(key.privateKeyPem) };
}

/** The plain text of a sealed value, or null when `box` has no key that opens it. */
function openOrNull(box: SecretBox, stored: string): string | null {
  try {
    return box.open(stored);
  } catch {
    return null;
  }
}

/** How long the old key's record stays published after the new key signs: mail signed just before still verifies. */
export const DKIM_OLD_KEY_DAYS = 7;

/** `selector`, or with a letter after it when a key of the domain has it already (a second rotation in a month). */
function freeSelector(selector: string, taken: string[]): string {
  for (const suffix of ['', ...'bcdefghijklmnopqrstuvwxyz']) if (!taken.includes(selector + suffix)) return selector + suffix;
  return `${selector}${Date.now().toString(36)}`;
}

const dkimRecord = (domain: Pick<DomainRow, 'id' | 'tenant_id'>, key: DkimKeyPair, now: Date) => ({
  tenant_id: domain.tenant_id,
  domain_id: domain.id,
  name: dkimRecordName(key.selector),
  type: 'TXT' as const,
  content: dkimRecordText(key.publicKey),
  ttl: DNS_TTL_DEFAULT,
  priority: null,
  created_at: now,
  updated_at: now,
});

/**
 * The zone a new domain starts with: its SOA (serial), the records of modules/dns/default-zone.ts
 * and, when a DKIM key is given, the key stored and its TXT record published.
 */
export async function createDefaultZone(db: Db, domain: DomainRow, defaults: ZoneDefaults, now: Date, dkim?: NewDkimKey): Promise<void> {
  await insertZone(db, { domain_id: domain.id, tenant_id: domain.tenant_id, serial: dailySerialBase(now), updated_at: now });
  const records = defaultZoneRecords(domain.name, defaults).map((record) => ({
    tenant_id: domain.tenant_id,
    domain_id: domain.id,
    ...record,
    ttl: DNS_TTL_DEFAULT,
    created_at: now,
    updated_at: now,
  }));
  if (dkim) {
    await insertDkimKey(db, {
      domain_id: domain.id,
      selector: dkim.selector,
      public_key: dkim.publicKey,
      private_key: dkim.sealedPrivateKey,
      created_at: now,
    });
  }
  await insertRecords(db, dkim ? [...records, dkimRecord(domain, dkim, now)] : records);
}

/** Thrown inside an import's transaction to undo its serial bump when nothing is left to add. */
class NothingNew extends Error {}

/** At most this many lines are named in one answer; the rest are counted. */
const IMPORT_PROBLEMS_SHOWN = 20;

/** 422 on `zone_file`: one message per line ("Line 12: Enter an IPv4 address…"). */
function importProblems(problems: ImportProblem[]): HttpError {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const shown = sorted.slice(0, IMPORT_PROBLEMS_SHOWN).map(({ line, key, params }) => ({
    key: 'dns.import.line' as const,
    params: { ...params, line, problemKey: key },
  }));
  const more = sorted.length - shown.length;
  return new HttpError(422, 'validation.failed', {
    fields: { zone_file: more > 0 ? [...shown, { key: 'dns.import.more', params: { count: more } }] : shown },
  });
}

/** The records of an import not yet in the zone, and the lines a CNAME rule refuses (RFC 1034 §3.6.2). */
function planImport(existing: RecordRow[], valid: { line: number; record: ValidRecord }[]) {
  const sameRecord = (r: { name: string; type: string; content: string }) => `${r.name} ${r.type} ${r.content}`;
  const seen = new Set(existing.map(sameRecord));
  const typesAt = new Map<string, string[]>();
  for (const row of existing) typesAt.set(row.name, [...(typesAt.get(row.name) ?? []), row.type]);
  const added: ValidRecord[] = [];
  const conflicts: ImportProblem[] = [];
  for (const { line, record } of valid) {
    if (seen.has(sameRecord(record))) continue;
    const types = typesAt.get(record.name) ?? [];
    if (record.type === 'CNAME' ? types.length > 0 : types.includes('CNAME')) {
      conflicts.push({ line, key: 'dns.cname_conflict' });
      continue;
    }
    seen.add(sameRecord(record));
    typesAt.set(record.name, [...types, record.type]);
    added.push(record);
  }
  return { added, conflicts };
}

/** The DNS records of a domain the viewer sees; every change bumps the SOA serial in the same transaction. */
export class DnsService {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; domains: DomainDirectory; secrets: SecretBox };

  constructor(deps: DnsService['deps']) {
    this.deps = deps;
  }

  async zone(viewer: UserRow, domainId: number) {
    const domain = await this.deps.domains.visible(viewer, domainId);
    const [records, zone] = await Promise.all([listRecords(this.deps.db, domain.id), findZone(this.deps.db, domain.id)]);
    return {
      domain_id: domain.id,
      zone: domain.name,
      soa: await this.soa(domain, records, zone ? Number(zone.serial) : dailySerialBase(new Date(domain.created_at))),
      records: records.map((row) => present(row, domain.name)),
      dnssec: await this.dnssecOf(domain),
      mail: await this.mailOf(domain, records),
    };
  }

  /** The zone's mail records checked against what receivers look up (modules/dns/mail-checks.ts). */
  private async mailOf(domain: DomainRow, records: RecordRow[]): Promise<MailRecords> {
    const key = await findDkimKey(this.deps.db, domain.id);
    const rotating = key && (key.next_selector || key.old_selector);
    return {
      dkim_selector: key?.selector ?? null,
      dkim_rotation: rotating
        ? {
            next_selector: key.next_selector,
            signs_at: key.next_signs_at ? iso(key.next_signs_at) : null,
            old_selector: key.old_selector,
            removed_at: key.old_removed_at ? iso(key.old_removed_at) : null,
          }
        : null,
      checks: mailChecks(domain.name, records, key ?? null),
    };
  }

  /**
   * Seals every DKIM private key under the signer's own key (DKIM_KEYS_PURPOSE) that is not yet:
   * keys made before signing existed were sealed under the server's key, which the mail agent must
   * not hold. Run once at start; answers how many it sealed again.
   */
  async sealDkimKeys(): Promise<{ sealed: number; unreadable: number }> {
    const signer = this.deps.secrets.derive(DKIM_KEYS_PURPOSE);
    let sealed = 0;
    let unreadable = 0;
    for (const row of await listDkimPrivateKeys(this.deps.db)) {
      if (!signer.needsReseal(row.private_key)) continue;
      const plain = [signer, this.deps.secrets].map((box) => openOrNull(box, row.private_key)).find((text) => text !== null);
      // Sealed under a key this server does not hold (another instance's, a key rotated away):
      // left as it is, and said; the server starts all the same.
      if (plain === undefined) {
        unreadable++;
        continue;
      }
      await resealDkimKey(this.deps.db, row.domain_id, row.private_key, signer.seal(plain));
      sealed++;
    }
    return { sealed, unreadable };
  }

  /**
   * Makes the domain's DKIM key if it has none (domains bought in the shop, or made before keys
   * existed) and publishes its TXT record if the zone lacks it. Doing it twice changes nothing.
   */
  async publishDkim(actor: Actor, domainId: number): Promise<{ data: MailRecords; soa: Soa }> {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const fresh = (await findDkimKey(this.deps.db, domain.id)) ? undefined : await sealedDkimKey(this.deps.secrets, this.deps.clock.now());
    const { serial, created } = await this.deps.db.transaction().execute(async (trx) => {
      const bumped = await this.bump(trx, domain);
      const now = this.deps.clock.now();
      const made = fresh
        ? await insertDkimKey(trx, {
            domain_id: domain.id,
            selector: fresh.selector,
            public_key: fresh.publicKey,
            private_key: fresh.sealedPrivateKey,
            created_at: now,
          })
        : false;
      const key = await findDkimKey(trx, domain.id);
      if (!key) throw new HttpError(404, 'http.not_found');
      const pair = { selector: key.selector, publicKey: key.public_key, privateKeyPem: '' };
      const text = dkimRecordText(key.public_key);
      const present = (await recordsAtName(trx, domain.id, dkimRecordName(key.selector), null)).some(
        (r) => r.type === 'TXT' && r.content === text,
      );
      if (!present) {
        if ((await countRecords(trx, domain.id)) >= DNS_RECORDS_PER_ZONE_MAX)
          throw new HttpError(422, 'dns.too_many', { params: { max: DNS_RECORDS_PER_ZONE_MAX } });
        await insertRecords(trx, [dkimRecord(domain, pair, now)]);
      }
      return { serial: bumped, created: made || !present ? key.selector : null };
    });
    if (created) {
      await this.deps.audit.recordAction(
        actor,
        'dns.dkim_published',
        domain.tenant_id,
        { type: 'domain', id: domain.id },
        {
          domain: domain.name,
          selector: created,
        },
      );
    }
    const records = await listRecords(this.deps.db, domain.id);
    return { data: await this.mailOf(domain, records), soa: await this.soa(domain, records, serial) };
  }

  /**
   * "Rotate DKIM key": a new key is published at a selector of its own beside the signing one; it
   * signs once receivers can find it (the record's TTL after now, DkimRotations below), and the old
   * record goes a week after that. One rotation at a time: another while one is under way is 409.
   */
  async rotateDkim(actor: Actor, domainId: number): Promise<{ data: MailRecords; soa: Soa }> {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const current = await findDkimKey(this.deps.db, domain.id);
    if (!current) throw new HttpError(409, 'dns.dkim_none');
    if (current.next_selector || current.old_selector) throw new HttpError(409, 'dns.dkim_rotating');
    const now = this.deps.clock.now();
    const fresh = await sealedDkimKey(this.deps.secrets, now);
    const selector = freeSelector(fresh.selector, [current.selector]);
    const serial = await this.deps.db.transaction().execute(async (trx) => {
      const signsAt = new Date(now.getTime() + DNS_TTL_DEFAULT * 1000);
      if (!(await startDkimRotation(trx, domain.id, { ...fresh, selector, signsAt }))) throw new HttpError(409, 'dns.dkim_rotating');
      if ((await countRecords(trx, domain.id)) >= DNS_RECORDS_PER_ZONE_MAX)
        throw new HttpError(422, 'dns.too_many', { params: { max: DNS_RECORDS_PER_ZONE_MAX } });
      const bumped = await this.bump(trx, domain);
      await insertRecords(trx, [dkimRecord(domain, { ...fresh, selector }, now)]);
      return bumped;
    });
    await this.deps.audit.recordAction(
      actor,
      'dns.dkim_rotation_started',
      domain.tenant_id,
      { type: 'domain', id: domain.id },
      { domain: domain.name, selector, previous: current.selector },
    );
    const records = await listRecords(this.deps.db, domain.id);
    return { data: await this.mailOf(domain, records), soa: await this.soa(domain, records, serial) };
  }

  /**
   * The rotations' due steps (run every few minutes, main.ts): a next key whose record receivers can
   * find by now becomes the signing key, and an old key's record a week after goes. Answers how
   * many steps were taken.
   */
  async runDkimRotations(): Promise<number> {
    let steps = 0;
    const now = this.deps.clock.now();
    for (const domain of await dueDkimRotations(this.deps.db, now)) {
      steps += await this.deps.db.transaction().execute(async (trx) => {
        let taken = 0;
        const signing = await switchDkimKey(trx, domain.id, now, new Date(now.getTime() + DKIM_OLD_KEY_DAYS * 86_400_000));
        if (signing) taken++;
        const old = signing ? null : await forgetOldDkimKey(trx, domain.id, now);
        if (old) {
          await this.bump(trx, domain);
          for (const record of await recordsAtName(trx, domain.id, dkimRecordName(old), null)) {
            if (record.type === 'TXT') await deleteRecord(trx, domain.id, record.id);
          }
          taken++;
        }
        return taken;
      });
    }
    return steps;
  }

  /** Signs the zone (a new ECDSA P-256 key, unless it has one); signing twice changes nothing. */
  async sign(actor: Actor, domainId: number): Promise<{ data: Dnssec; soa: Soa }> {
    return this.setSigned(actor, domainId, true);
  }

  /** Removes the zone's keys: answers are unsigned at once (the registrar's DS must go first). */
  async unsign(actor: Actor, domainId: number): Promise<{ data: Dnssec; soa: Soa }> {
    return this.setSigned(actor, domainId, false);
  }

  private async setSigned(actor: Actor, domainId: number, signed: boolean) {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    // The serial's row lock serialises this with every other change of the zone.
    const { serial, changed } = await this.deps.db.transaction().execute(async (trx) => {
      const bumped = await this.bump(trx, domain);
      const keys = await listSigningKeys(trx, domain.id);
      if (signed && keys.length === 0) await insertSigningKey(trx, domain.id, CSK_FLAGS, newSigningKey());
      if (!signed && keys.length > 0) await deleteSigningKeys(trx, domain.id);
      return { serial: bumped, changed: signed !== keys.length > 0 };
    });
    const data = await this.dnssecOf(domain);
    if (changed) {
      await this.deps.audit.recordAction(
        actor,
        signed ? 'dns.dnssec_signed' : 'dns.dnssec_unsigned',
        domain.tenant_id,
        { type: 'domain', id: domain.id },
        { domain: domain.name, ...(data.ds[0] ? { key_tag: data.ds[0].key_tag } : {}) },
      );
    }
    return { data, soa: await this.soa(domain, await listRecords(this.deps.db, domain.id), serial) };
  }

  private async dnssecOf(domain: DomainRow): Promise<Dnssec> {
    const keys = await listSigningKeys(this.deps.db, domain.id);
    return {
      signed: keys.length > 0,
      ds: keys.filter((key) => key.flags === CSK_FLAGS).map((key) => dsOf(domain.name, key.flags, key.content)),
    };
  }

  async create(actor: Actor, domainId: number, input: DnsRecordPayload) {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const record = validateRecord(input, domain.name);
    const { row, serial } = await this.change(domain, null, record, async (trx) => {
      if ((await countRecords(trx, domain.id)) >= DNS_RECORDS_PER_ZONE_MAX)
        throw new HttpError(422, 'dns.too_many', { params: { max: DNS_RECORDS_PER_ZONE_MAX } });
      const now = this.deps.clock.now();
      return insertRecord(trx, {
        ...record,
        disabled: input.disabled,
        tenant_id: domain.tenant_id,
        domain_id: domain.id,
        created_at: now,
        updated_at: now,
      });
    });
    await this.audit(actor, 'dns.record_created', domain, row);
    return this.answer(domain, row, serial);
  }

  async update(actor: Actor, domainId: number, recordId: number, patch: Partial<DnsRecordPayload>) {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const existing = await findRecord(this.deps.db, domain.id, recordId);
    if (!existing) throw new HttpError(404, 'http.not_found');
    const type = patch.type ?? existing.type;
    const keepsPriority = patch.type === undefined || patch.type === existing.type;
    const record = validateRecord(
      {
        name: patch.name ?? existing.name,
        type,
        content: patch.content ?? existing.content,
        ttl: patch.ttl ?? existing.ttl,
        priority: patch.priority !== undefined ? patch.priority : keepsPriority ? existing.priority : null,
      },
      domain.name,
    );
    const { row, serial } = await this.change(domain, recordId, record, (trx) =>
      updateRecord(trx, domain.id, recordId, {
        ...record,
        disabled: patch.disabled ?? existing.disabled,
        updated_at: this.deps.clock.now(),
      }),
    );
    await this.audit(actor, 'dns.record_updated', domain, row);
    return this.answer(domain, row, serial);
  }

  async remove(actor: Actor, domainId: number, recordId: number): Promise<{ soa: Soa }> {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const existing = await findRecord(this.deps.db, domain.id, recordId);
    if (!existing) throw new HttpError(404, 'http.not_found');
    const serial = await this.deps.db.transaction().execute(async (trx) => {
      const bumped = await this.bump(trx, domain);
      if ((await deleteRecord(trx, domain.id, recordId)) === 0) throw new HttpError(404, 'http.not_found');
      return bumped;
    });
    await this.audit(actor, 'dns.record_deleted', domain, existing);
    return { soa: await this.soa(domain, await listRecords(this.deps.db, domain.id), serial) };
  }

  /**
   * Adds the records of a BIND master file (modules/dns/zone-import.ts) to the zone, all or none:
   * every line that cannot be read or kept is named in the answer and nothing is written. Records
   * already in the zone are left out, as are the file's SOA and apex NS (the zone keeps its own).
   */
  async importZone(actor: Actor, domainId: number, text: string): Promise<{ data: { added: number; skipped: number }; soa: Soa }> {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const parsed = parseZoneFile(text, domain.name);
    const problems = [...parsed.problems];
    const valid: { line: number; record: ValidRecord }[] = [];
    for (const { line, input } of parsed.records) {
      if (input.ttl < DNS_TTL_MIN || input.ttl > DNS_TTL_MAX) {
        problems.push({ line, key: 'dns.ttl_range' });
        continue;
      }
      try {
        valid.push({ line, record: validateRecord(input, domain.name) });
      } catch (error) {
        const first = error instanceof HttpError ? Object.values(error.fieldErrors ?? {})[0]?.[0] : undefined;
        if (!first) throw error;
        problems.push({ line, key: first.key, ...(first.params ? { params: first.params } : {}) });
      }
    }
    if (problems.length) throw importProblems(problems);
    if (valid.length === 0 && parsed.ignored === 0) throw fieldError('zone_file', 'dns.import.empty');

    // What would be added, from the zone as it is now: with nothing new, the serial stays.
    let plan = planImport(await listRecords(this.deps.db, domain.id), valid);
    let serial: number | null = null;
    if (plan.added.length > 0) {
      serial = await this.deps.db
        .transaction()
        .execute(async (trx) => {
          const bumped = await this.bump(trx, domain);
          // Again under the zone's lock: a change made meanwhile counts.
          const existing = await listRecords(trx, domain.id);
          plan = planImport(existing, valid);
          if (plan.conflicts.length) throw importProblems(plan.conflicts);
          // Another import added them first: the serial bump is rolled back.
          if (plan.added.length === 0) throw new NothingNew();
          if (existing.length + plan.added.length > DNS_RECORDS_PER_ZONE_MAX)
            throw fieldError('zone_file', 'dns.too_many', { max: DNS_RECORDS_PER_ZONE_MAX });
          const now = this.deps.clock.now();
          await insertRecords(
            trx,
            plan.added.map((record) => ({
              ...record,
              tenant_id: domain.tenant_id,
              domain_id: domain.id,
              created_at: now,
              updated_at: now,
            })),
          );
          return bumped;
        })
        .catch((error: unknown) => {
          if (error instanceof NothingNew) return null;
          throw error;
        });
    } else if (plan.conflicts.length) throw importProblems(plan.conflicts);
    const skipped = valid.length - plan.added.length + parsed.ignored;
    await this.deps.audit.recordAction(
      actor,
      'dns.zone_imported',
      domain.tenant_id,
      { type: 'domain', id: domain.id },
      { domain: domain.name, added: plan.added.length, skipped },
    );
    const records = await listRecords(this.deps.db, domain.id);
    const zone = serial ?? Number((await findZone(this.deps.db, domain.id))?.serial ?? dailySerialBase(new Date(domain.created_at)));
    return { data: { added: plan.added.length, skipped }, soa: await this.soa(domain, records, zone) };
  }

  /** Serial first: its row lock serialises changes to the zone, so the checks below see a settled zone. */
  private async change(
    domain: DomainRow,
    exceptId: number | null,
    record: ValidRecord,
    write: (trx: Db) => Promise<RecordRow>,
  ): Promise<{ row: RecordRow; serial: number }> {
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        const serial = await this.bump(trx, domain);
        const neighbours = await recordsAtName(trx, domain.id, record.name, exceptId);
        if (record.type === 'CNAME' ? neighbours.length > 0 : neighbours.some((r) => r.type === 'CNAME')) {
          throw fieldError('name', 'dns.cname_conflict');
        }
        if (neighbours.some((r) => r.type === record.type && r.content === record.content)) throw fieldError('content', 'dns.duplicate');
        return { row: await write(trx), serial };
      });
    } catch (error) {
      if (isUniqueViolation(error, 'dns_records_unique')) throw fieldError('content', 'dns.duplicate');
      throw error;
    }
  }

  private bump(trx: Db, domain: Pick<DomainRow, 'id' | 'tenant_id' | 'created_at'>): Promise<number> {
    const now = this.deps.clock.now();
    const created = dailySerialBase(new Date(domain.created_at));
    return bumpZoneSerial(trx, {
      domainId: domain.id,
      tenantId: domain.tenant_id,
      firstSerial: nextSerial(created, now),
      dailyBase: dailySerialBase(now),
      now,
    });
  }

  /** The primary master is the zone's first NS record, else the tenant's first name server. */
  private async soa(domain: DomainRow, records: RecordRow[], serial: number): Promise<Soa> {
    const apexNs = records.filter((r) => r.type === 'NS' && r.name === '@').map((r) => r.content);
    return soaOf(domain.name, serial, apexNs.length ? apexNs : await tenantNameServers(this.deps.db, domain.tenant_id));
  }

  private async answer(domain: DomainRow, row: RecordRow, serial: number) {
    return { data: present(row, domain.name), soa: await this.soa(domain, await listRecords(this.deps.db, domain.id), serial) };
  }

  private async audit(
    actor: Actor,
    action: 'dns.record_created' | 'dns.record_updated' | 'dns.record_deleted',
    domain: DomainRow,
    row: RecordRow,
  ) {
    await this.deps.audit.recordAction(
      actor,
      action,
      domain.tenant_id,
      { type: 'dns_record', id: row.id },
      {
        domain_id: domain.id,
        domain: domain.name,
        name: row.name,
        type: row.type,
        content: row.content.slice(0, 200),
      },
    );
  }
}

/** How often the due steps of DKIM key rotations are taken. */
export const DKIM_ROTATION_EVERY_MS = 5 * 60_000;

export function startDkimRotationJob(dns: DnsService, log: FastifyBaseLogger): { stop(): void } {
  return startPeriodic(
    () =>
      dns
        .runDkimRotations()
        .then((steps) => {
          if (steps) log.info({ steps }, 'DKIM key rotations advanced');
        })
        .catch((error: unknown) => log.error({ err: error }, 'DKIM key rotations failed')),
    { everyMs: DKIM_ROTATION_EVERY_MS, firstAfterMs: 15_000 },
  );
}
