import { MAIL_ALIASES_PER_DOMAIN, type MailAlias } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { uidFor } from '../domain-users/accounts.ts';
import { displayDomainName } from '../domains/names.ts';
import type { DomainDirectory } from '../domains/service.ts';
import { iso } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import {
  countMailAliases,
  forwardsReach,
  deleteMailAlias,
  findMailAlias,
  insertMailAlias,
  listMailAliases,
  lockDomainForAliases,
  mailboxExists,
} from './queries.ts';

type AliasRow = Awaited<ReturnType<typeof listMailAliases>>[number];

const present = (row: AliasRow, domainName: string): MailAlias => ({
  id: row.id,
  domain_id: row.domain_id,
  address: `${row.local_part}@${domainName}`,
  local_part: row.local_part,
  destination: row.destination,
  created_at: iso(row.created_at),
});

/**
 * Forwarders of a domain, kept by its owner and the admins who see it. Postfix reads them as
 * virtual aliases (view mail.aliases, deploy/postfix/pgsql-aliases.cf): a new one works at the
 * next message.
 */
export class MailAliases {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; domains: DomainDirectory };

  constructor(deps: MailAliases['deps']) {
    this.deps = deps;
  }

  async list(viewer: UserRow, domainId: number): Promise<MailAlias[]> {
    const domain = await this.deps.domains.visible(viewer, domainId);
    return (await listMailAliases(this.deps.db, domain.id)).map((row) => present(row, domain.name));
  }

  async create(actor: Actor, domainId: number, input: { local_part: string; destination: string }): Promise<MailAlias> {
    const { db } = this.deps;
    const domain = await this.deps.domains.visible(actor.user, domainId);
    // The same rules as a mailbox's login: `sales` or `sales@<this domain>`.
    const address = uidFor(input.local_part, domain.name);
    if (!address) throw fieldError('local_part', 'mail_alias.invalid_local_part', { domain: displayDomainName(domain.name) });
    if (input.destination === address) throw fieldError('destination', 'mail_alias.loop');
    if (await mailboxExists(db, address)) throw fieldError('local_part', 'mail_alias.is_mailbox');
    const localPart = address.slice(0, address.lastIndexOf('@'));
    let row: AliasRow;
    try {
      row = await db.transaction().execute(async (trx) => {
        // Counted under the domain's row lock: 30 requests at once cannot pass the limit together.
        await lockDomainForAliases(trx, domain.id);
        if ((await countMailAliases(trx, domain.id)) >= MAIL_ALIASES_PER_DOMAIN) {
          throw fieldError('local_part', 'mail_alias.limit', { limit: MAIL_ALIASES_PER_DOMAIN });
        }
        // a -> b while b already leads back to a: mail would circle until a server gives up.
        if (await forwardsReach(trx, input.destination, address)) throw fieldError('destination', 'mail_alias.loop');
        return insertMailAlias(trx, {
          tenant_id: domain.tenant_id,
          domain_id: domain.id,
          local_part: localPart,
          destination: input.destination,
          created_at: this.deps.clock.now(),
        });
      });
    } catch (error) {
      if (isUniqueViolation(error, 'mail_aliases_unique')) throw fieldError('destination', 'mail_alias.taken');
      throw error;
    }
    await this.audit(actor, 'mail_alias.created', domain.tenant_id, row, address);
    return present(row, domain.name);
  }

  async remove(actor: Actor, domainId: number, id: number): Promise<MailAlias> {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const row = await findMailAlias(this.deps.db, domain.id, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    await deleteMailAlias(this.deps.db, domain.id, id);
    const alias = present(row, domain.name);
    await this.audit(actor, 'mail_alias.deleted', domain.tenant_id, row, alias.address);
    return alias;
  }

  private async audit(actor: Actor, action: 'mail_alias.created' | 'mail_alias.deleted', tenantId: number, row: AliasRow, address: string) {
    await this.deps.audit.recordAction(
      actor,
      action,
      tenantId,
      { type: 'mail_alias', id: row.id },
      { address, destination: row.destination, domain_id: row.domain_id },
    );
  }
}
