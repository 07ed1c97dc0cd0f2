import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { Domain } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { DomainEditor } from './editor.ts';
import { displayDomainName } from './names.ts';
import { clearVerificationToken } from './queries.ts';
import type { DomainDirectory } from './service.ts';

/** The value a customer's proof TXT record must carry: unguessable, one per domain. */
export const newVerificationToken = (): string => `domain-verification=${randomBytes(16).toString('hex')}`;

/** DNS answers that mean "no such record (yet)"; anything else means the name servers did not answer. */
const NOT_THERE = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * A customer proves that a domain they added is theirs, as Google Workspace and Microsoft 365 ask
 * it: a TXT record at `_domain-verification.<domain>` with the value Berth gave them, looked up in
 * public DNS (DNS_RESOLVERS). Until then the domain is not served (migration 0019_domain_proof).
 */
export class DomainProof {
  private readonly deps: { db: Db; audit: AuditService; directory: DomainDirectory; editor: DomainEditor; resolvers: string[] };

  constructor(deps: DomainProof['deps']) {
    this.deps = deps;
  }

  async verify(actor: Actor, id: number): Promise<{ domain: Domain; proven: boolean }> {
    const domain = await this.deps.directory.visible(actor.user, id);
    const detail = await this.deps.editor.detail(actor.user, domain.id);
    if (!detail.proof) return { domain: detail, proven: false };
    const { record, value } = detail.proof;
    const found = await this.lookUp(record, domain.name);
    if (!found.includes(value)) {
      throw new HttpError(409, 'domain.proof_missing', { params: { record, value, name: displayDomainName(domain.name) } });
    }
    // Of simultaneous checks, the one that clears the token records it; the others see it proven.
    const cleared = await clearVerificationToken(this.deps.db, domain.id, value);
    if (cleared) {
      await this.deps.audit.recordAction(
        actor,
        'domain.verified',
        domain.tenant_id,
        { type: 'domain', id: domain.id },
        { name: domain.name },
      );
    }
    return { domain: await this.deps.editor.detail(actor.user, domain.id), proven: true };
  }

  /** The TXT texts at `record` (each record's strings joined, as RFC 7208 reads them). */
  private async lookUp(record: string, name: string): Promise<string[]> {
    const resolver = new Resolver({ timeout: 3_000, tries: 2 });
    if (this.deps.resolvers.length > 0) resolver.setServers(this.deps.resolvers);
    try {
      return (await resolver.resolveTxt(record)).map((strings) => strings.join(''));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NOT_THERE.has(code)) return [];
      throw new HttpError(409, 'domain.proof_unreachable', { params: { name: displayDomainName(name) } });
    }
  }
}
