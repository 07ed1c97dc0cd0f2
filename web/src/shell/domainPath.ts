/** The domain id of a domain page's path (`/host/domain/42/dns` → 42), else null. */
export function domainIdOfPath(pathname: string): number | null {
  const match = /^\/host\/domain\/(\d+)(?:\/|$)/.exec(pathname);
  if (!match?.[1]) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A domain's overview page, where picking it in the selector goes (docs/product.md §2). */
export const domainOverviewPath = (id: number): string => `/host/domain/${id}/edit`;
