import type { Soa } from '@berth/contracts';

/** SOA timers (RIPE-203 recommendations for small zones). */
export const SOA_TIMERS = { refresh: 10_800, retry: 3600, expire: 1_209_600, minimum: 3600, ttl: 3600 } as const;

/** The first serial of a day in the usual YYYYMMDDnn form. */
export const dailySerialBase = (at: Date): number =>
  Number(`${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}${String(at.getUTCDate()).padStart(2, '0')}00`);

/** The serial after a change: the next number, and at least today's first (so serials read as dates). */
export const nextSerial = (current: number, now: Date): number => Math.max(current + 1, dailySerialBase(now));

export function soaOf(zone: string, serial: number, nameServers: readonly string[]): Soa {
  return { mname: nameServers[0] ?? `ns1.${zone}`, rname: `hostmaster.${zone}`, serial, ...SOA_TIMERS };
}
