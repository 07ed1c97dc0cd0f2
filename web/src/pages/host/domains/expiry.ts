/** Owners are reminded 30 days ahead (the expiry job); the pages hint at it from then on. */
export const EXPIRES_SOON_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export type ExpiryState = 'none' | 'expired' | 'soon' | 'later';

/** Where a domain stands: the server says whether it has expired; "soon" is the last 30 days. */
export function expiryState(domain: { expire_at: string | null; expired: boolean }, now: number = Date.now()): ExpiryState {
  if (domain.expire_at === null) return 'none';
  if (domain.expired) return 'expired';
  return new Date(domain.expire_at).getTime() - now <= EXPIRES_SOON_DAYS * DAY_MS ? 'soon' : 'later';
}

/** Whole days until the expiry (at least 0). */
export const daysLeft = (expireAt: string, now: number = Date.now()): number =>
  Math.max(0, Math.ceil((new Date(expireAt).getTime() - now) / DAY_MS));

/** The value of a date input for an expiry (`2027-03-01`), '' for none. */
export const expiryInputValue = (iso: string | null): string => (iso ? new Date(iso).toISOString().slice(0, 10) : '');

/** How the browser writes a name in punycode (its URL parser applies IDNA), or undefined. */
export function punycodeOf(name: string): string | undefined {
  const trimmed = name.trim().replace(/\.$/, '');
  if (!trimmed || /[\s/:?#@]/.test(trimmed)) return undefined;
  try {
    return new URL(`http://${trimmed}`).hostname;
  } catch {
    return undefined;
  }
}
