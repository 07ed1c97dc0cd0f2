import { describe, expect, it } from 'vitest';
import { AddressGuard, AddressRefused, classifyAddress } from './address-guard.ts';

// Classification only: nothing here opens a connection or sends a packet.
describe('classifyAddress', () => {
  const cases: [string, ReturnType<typeof classifyAddress>][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fc00::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['not-an-address', 'reserved'],
    ['93.184.215.14', 'public'],
    ['172.32.0.1', 'public'],
    ['2a00:1450:4001::1', 'public'],
    ['::ffff:8.8.8.8', 'public'],
  ];
  it.each(cases)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('AddressGuard', () => {
  it('refuses an address literal outside the public ranges, unless the operator allows its range', async () => {
    const strict = new AddressGuard({});
    for (const host of ['127.0.0.1', '[::1]', '10.0.0.5', '169.254.169.254', '[fe80::1]']) {
      await expect(strict.resolve(host)).rejects.toBeInstanceOf(AddressRefused);
    }
    const allowing = new AddressGuard({ allowedRanges: '127.0.0.1/32, ::1' });
    expect(await allowing.resolve('127.0.0.1')).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await allowing.resolve('[::1]')).toEqual({ address: '::1', family: 6 });
    await expect(allowing.resolve('127.0.0.2')).rejects.toThrow('127.0.0.2 is a loopback address');
    expect(await strict.resolve('93.184.215.14')).toEqual({ address: '93.184.215.14', family: 4 });
  });

  it('refuses an operator range that is not one', () => {
    expect(() => new AddressGuard({ allowedRanges: 'intranet' })).toThrow('WEBHOOK_ALLOWED_RANGES');
  });
});
