import type { MailRequest } from '../mail/mailer.ts';
import type { MailParams } from '../mail/templates.ts';
import { languageOf } from '../shop/language.ts';
import { displayNameOf } from '../tenants/scope.ts';
import type { ResolvedTenant } from '../tenants/service.ts';
import type { UserRow } from '../users/queries.ts';

/** A notice about a customer's services (a renewal, an invoice, a domain, a certificate) as a mail to them, in their language. */
export function serviceNoticeMail(
  owner: UserRow,
  tenant: ResolvedTenant | undefined,
  params: Omit<MailParams['billing'], 'name'>,
): MailRequest<'billing'> {
  return {
    to: owner.email,
    language: languageOf(owner),
    tenantId: owner.tenant_id,
    tenantTitle: tenant?.title ?? 'Berth',
    kind: 'billing',
    params: { name: displayNameOf(owner), ...params },
  };
}
