import { clientAddress, limitKeyOf } from './client-address';

describe('clientAddress', () => {
  it('is the socket peer by default, whatever X-Forwarded-For says', () => {
    expect(clientAddress('10.0.0.7', '203.0.113.9', 0)).toBe('10.0.0.7');
    expect(clientAddress('10.0.0.7', undefined, 0)).toBe('10.0.0.7');
  });

  it('behind one trusted proxy: the last X-Forwarded-For entry (what the proxy saw), not the ones the client wrote', () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the ingress (10.0.0.2) appended the address it saw.
    expect(clientAddress('10.0.0.2', '1.2.3.4, 198.51.100.20', 1)).toBe('198.51.100.20');
    expect(clientAddress('10.0.0.2', ['1.2.3.4', '198.51.100.20'], 1)).toBe('198.51.100.20');
  });

  it('behind two trusted proxies: the entry two places from the right', () => {
    expect(clientAddress('10.0.0.3', '1.2.3.4, 198.51.100.20, 10.0.0.2', 2)).toBe('198.51.100.20');
  });

  it('a chain shorter than the trusted hops gives its leftmost entry; no header gives the peer', () => {
    expect(clientAddress('10.0.0.2', '198.51.100.20', 3)).toBe('198.51.100.20');
    expect(clientAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
    expect(clientAddress(undefined, undefined, 0)).toBe('unknown');
  });
});

describe('limitKeyOf', () => {
  it.each([
    ['IPv4 as itself', '198.51.100.20', '198.51.100.20'],
    ['IPv4-mapped IPv6 as the IPv4 address', '::ffff:127.0.0.5', '127.0.0.5'],
    ['IPv6 by its /64', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['another host of the same /64', '2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['compressed IPv6 in the prefix', '2001:db8::1', '2001:db8:0:0::/64'],
    ['loopback IPv6', '::1', '0:0:0:0::/64'],
    ['a zone index is dropped', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['anything else as written', 'unknown', 'unknown'],
  ])('%s', (_name, address, key) => {
    expect(limitKeyOf(address)).toBe(key);
  });
});
