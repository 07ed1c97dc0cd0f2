import type { Ability, MenuItem } from '@berth/contracts';
import { userMay } from '../policy/guard.ts';
import type { ResolvedTenant } from '../tenants/service.ts';
import type { UserRow } from '../users/queries.ts';

type Spec = Partial<Omit<MenuItem, 'children'>> & { id: string; title: string; children?: Spec[] };

/** Titles are i18n keys (`menu.*`) the web translates, so a language switch needs no refetch. */
const item = (spec: Spec): MenuItem => ({
  route: null,
  href: null,
  target: null,
  icon: null,
  badge: null,
  is_iframe: false,
  isActive: false,
  isOpen: false,
  ...spec,
  children: (spec.children ?? []).map(item),
});

/**
 * The navigation tree a user sees: an entry shows exactly where the policy table
 * (policy/table.ts) lets the user use its page, so the menu never offers what the API refuses.
 */
export function navigationFor(user: UserRow, tenant: ResolvedTenant): MenuItem[] {
  const can = (ability: Ability) => userMay(user, tenant, ability);
  const only = (ability: Ability, spec: Spec): Spec[] => (can(ability) ? [spec] : []);
  const isCustomer = user.role === 'customer';
  const tree: Spec[] = [
    { id: 'dashboard', title: 'menu.dashboard', route: '/dashboard', icon: 'gauge' },
    {
      id: 'domains',
      title: 'menu.domains',
      icon: 'world',
      children: [
        { id: 'domains.list', title: 'menu.domains_list', route: '/host/domain' },
        { id: 'domains.create', title: 'menu.domains_create', route: '/host/domain/create' },
      ],
    },
    {
      id: 'shop',
      title: 'menu.shop',
      icon: 'shopping-cart',
      children: [
        { id: 'shop.catalogue', title: 'menu.shop_catalogue', route: '/shop' },
        { id: 'shop.cart', title: 'menu.shop_cart', route: '/shop/cart' },
        { id: 'shop.services', title: 'menu.services', route: '/account/services' },
        { id: 'shop.invoices', title: 'menu.invoices', route: '/account/invoices' },
      ],
    },
  ];
  const system: Spec[] = [
    ...only('customers.manage', { id: 'system.customers', title: 'menu.customers', route: '/system/customers' }),
    ...only('audit.view', { id: 'system.audit', title: 'menu.audit', route: '/system/audit' }),
    ...only('security.manage', { id: 'system.security', title: 'menu.security', route: '/system/security' }),
    // The page's own i18n keys are its titles.
    ...only('invoices.manage', { id: 'system.invoices', title: 'invoices.admin.title', route: '/system/partner/invoices' }),
    ...only('catalogue.manage', { id: 'system.catalogue', title: 'catalogue.title', route: '/system/partner/catalogue' }),
    ...only('tenants.manage', { id: 'system.tenants', title: 'menu.tenants', route: '/system/tenants' }),
    ...only('outbox.view', { id: 'system.outbox', title: 'menu.outbox', route: '/system/outbox' }),
    ...only('servers.manage', { id: 'system.servers', title: 'menu.servers', route: '/system/servers' }),
    ...only('jobs.manage', { id: 'system.jobs', title: 'menu.jobs', route: '/system/jobs' }),
    ...only('webhooks.manage', { id: 'system.webhooks', title: 'menu.webhooks', route: '/system/webhooks' }),
  ];
  if (system.length > 0) tree.push({ id: 'system', title: 'menu.system', icon: 'settings', children: system });
  // The partner's tools: other users' credit and the promo codes; a customer finds their own
  // credit under Account instead (the same page shows only their own ledger).
  const partner: Spec[] = [
    ...only('credit.administer', { id: 'partner.credit', title: 'menu.partner_credit', route: '/system/partner/credit' }),
    ...only('promo.manage', { id: 'partner.promo', title: 'menu.partner_promo', route: '/system/partner/promo' }),
  ];
  if (partner.length > 0) tree.push({ id: 'partner', title: 'menu.partner', icon: 'coins', children: partner });
  tree.push({
    id: 'account',
    title: 'menu.account',
    icon: 'user',
    children: [
      { id: 'account.profile', title: 'menu.profile', route: '/account' },
      { id: 'account.notifications', title: 'menu.notifications', route: '/notifications' },
      {
        id: 'account.2fa',
        title: 'menu.two_factor',
        route: '/account/2fa',
        ...(user.google2fa_enabled ? {} : { badge: { class: 'warning', label: 'menu.badge_off' } }),
      },
      { id: 'account.password', title: 'menu.password', route: '/password' },
      { id: 'account.api_tokens', title: 'menu.api_tokens', route: '/account/api-tokens' },
      ...(isCustomer ? only('credit.own', { id: 'account.credit', title: 'menu.credit', route: '/system/partner/credit' }) : []),
      ...only('payment_methods.use', { id: 'account.payment_methods', title: 'menu.payment_methods', route: '/account/payment-methods' }),
    ],
  });
  tree.push(...only('api_docs.view', { id: 'api', title: 'menu.api_docs', icon: 'api', href: '/api/docs', target: '_blank' }));
  return tree.map(item);
}

/** A domain's own menu, shown under the domain selector. */
export function domainMenu(domainId: number): MenuItem[] {
  const base = `/host/domain/${domainId}`;
  return [
    { id: 'domain.overview', title: 'menu.domain_overview', route: `${base}/edit`, icon: 'info-circle' },
    { id: 'domain.users', title: 'menu.domain_users', route: `${base}/users`, icon: 'mail' },
    { id: 'domain.aliases', title: 'menu.domain_aliases', route: `${base}/aliases`, icon: 'mail-forward' },
    { id: 'domain.dns', title: 'menu.domain_dns', route: `${base}/dns`, icon: 'server' },
    { id: 'domain.renewal', title: 'menu.domain_renewal', route: `${base}/renew`, icon: 'refresh' },
  ].map(item);
}
