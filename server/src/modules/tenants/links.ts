/**
 * Links in e-mails use the tenant's configured public URL (else the operator's), never the
 * request's Host header, which an attacker can set.
 */
export function publicBaseUrl(tenant: { public_url: string | null } | undefined, fallback: string): string {
  return (tenant?.public_url ?? fallback).replace(/\/+$/, '');
}
