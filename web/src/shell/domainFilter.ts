import type { DomainOption } from '@berth/contracts';

/** Case-insensitive substring search; dots and dashes count, so "a.c" finds "anchor-a.cz". */
export function domainFilter(domains: readonly DomainOption[], query: string): readonly DomainOption[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return domains;
  return domains.filter((domain) => domain.text.toLocaleLowerCase().includes(needle));
}
