import { BlockList, isIP } from 'node:net';
import { Resolver, lookup } from 'node:dns/promises';

/**
 * Where a webhook may go: public addresses only (no loopback, private, shared, link-local,
 * metadata, multicast, documentation or otherwise reserved ranges, IPv4 and IPv6), unless the
 * operator allows a range (WEBHOOK_ALLOWED_RANGES). A name is resolved once, every answer must
 * pass, and the connection is made to the address that was checked: a DNS answer that changes
 * after the check (rebinding) is never asked for.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'reserved';

const RANGES: [AddressClass, string, number, 'ipv4' | 'ipv6'][] = [
  ['metadata', '169.254.169.254', 32, 'ipv4'],
  ['metadata', '100.100.100.200', 32, 'ipv4'],
  ['metadata', 'fd00:ec2::254', 128, 'ipv6'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', '0.0.0.0', 8, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['reserved', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['reserved', '::', 128, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['reserved', 'ff00::', 8, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
];

const LISTS = new Map<AddressClass, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  const list = LISTS.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  LISTS.set(kind, list);
}

/** The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** The class of an IP address (IPv4 or IPv6 text); anything that is not an address is reserved. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return classifyAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const kind of ['metadata', 'loopback', 'private', 'link-local', 'reserved'] as const) {
    if (LISTS.get(kind)?.check(address, type)) return kind;
  }
  return 'public';
}

export class AddressRefused extends Error {
  readonly addressClass: AddressClass | 'unresolved';

  constructor(host: string, kind: AddressClass | 'unresolved', address?: string) {
    super(
      kind === 'unresolved'
        ? `${host} does not resolve`
        : `${host}${address && address !== host ? ` (${address})` : ''} is a ${kind} address: webhooks go to public addresses only`,
    );
    this.name = 'AddressRefused';
    this.addressClass = kind;
  }
}

/** Parses "10.0.0.0/8, 127.0.0.1/32, ::1/128" into a list (the operator's allowed ranges). */
export function parseRanges(text: string | undefined): BlockList {
  const list = new BlockList();
  for (const item of (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [network = '', prefixText] = item.split('/');
    const family = isIP(network);
    if (family === 0) throw new Error(`WEBHOOK_ALLOWED_RANGES: ${item} is not an address or range`);
    const prefix = prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128) || item.split('/').length > 2)
      throw new Error(`WEBHOOK_ALLOWED_RANGES: ${item} is not an address or range`);
    list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

export class AddressGuard {
  private readonly allowed: BlockList;
  private readonly resolvers: string[];
  private readonly extraRanges: () => Promise<string[]>;

  constructor(options: {
    allowedRanges?: string | undefined;
    resolvers?: string[];
    /** The super admin's ranges (webhooks/allowed-ranges.ts), read at each check. */
    extraRanges?: () => Promise<string[]>;
  }) {
    this.allowed = parseRanges(options.allowedRanges);
    this.resolvers = options.resolvers ?? [];
    this.extraRanges = options.extraRanges ?? (() => Promise.resolve([]));
  }

  private allowedAddress(address: string, extra: BlockList): boolean {
    const v4 = isIP(address) === 6 ? embeddedIpv4(address) : undefined;
    const target = v4 ?? address;
    const type = isIP(target) === 4 ? 'ipv4' : 'ipv6';
    return this.allowed.check(target, type) || extra.check(target, type) || classifyAddress(address) === 'public';
  }

  /** Every address `host` resolves to, once; throws AddressRefused unless all may be reached. */
  async resolve(host: string): Promise<{ address: string; family: 4 | 6 }> {
    const bare = host.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(bare)) addresses = [bare];
    else if (this.resolvers.length > 0) {
      const resolver = new Resolver({ timeout: 3_000, tries: 2 });
      resolver.setServers(this.resolvers);
      const [v4, v6] = await Promise.all([resolver.resolve4(bare).catch(() => []), resolver.resolve6(bare).catch(() => [])]);
      addresses = [...v4, ...v6];
    } else {
      addresses = (await lookup(bare, { all: true }).catch(() => [])).map((entry) => entry.address);
    }
    if (addresses.length === 0) throw new AddressRefused(host, 'unresolved');
    const extra = parseRanges((await this.extraRanges()).join(','));
    for (const address of addresses) {
      if (!this.allowedAddress(address, extra)) throw new AddressRefused(host, classifyAddress(address), address);
    }
    const address = addresses[0]!;
    return { address, family: isIP(address) === 6 ? 6 : 4 };
  }
}
