import { isAllowedAddress, parseCidrs } from './address-policy';

describe('isAllowedAddress (no allowed ranges)', () => {
  it.each([
    // IPv4 loopback, RFC 1918, link-local (cloud metadata), CGNAT, "this network", benchmark, multicast, broadcast
    ['127.0.0.1', 'loopback'],
    ['127.5.5.5', 'loopback (whole /8)'],
    ['10.1.2.3', 'RFC 1918 10/8'],
    ['10.255.255.255', 'RFC 1918 10/8 (top)'],
    ['172.16.0.1', 'RFC 1918 172.16/12 (bottom)'],
    ['172.31.255.255', 'RFC 1918 172.16/12 (top)'],
    ['192.168.1.1', 'RFC 1918 192.168/16'],
    ['169.254.169.254', 'link-local / cloud metadata'],
    ['100.64.0.1', 'CGNAT 100.64/10'],
    ['100.127.255.255', 'CGNAT 100.64/10 (top)'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network" 0/8'],
    ['198.18.0.1', 'benchmark 198.18/15'],
    ['198.19.255.255', 'benchmark 198.18/15 (top)'],
    ['192.0.0.1', 'IETF protocol assignments'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.51.100.1', 'TEST-NET-2'],
    ['203.0.113.1', 'TEST-NET-3'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['240.0.0.1', 'reserved 240/4'],
    ['255.255.255.255', 'broadcast'],
    // IPv4 in unusual notations is still the same address
    ['127.1', 'loopback, short form'],
    ['2130706433', 'loopback, as one integer'],
    ['0x7f000001', 'loopback, hex'],
    // IPv6
    ['::1', 'IPv6 loopback'],
    ['::7f00:1', 'IPv4-compatible IPv6 of 127.0.0.1'],
    ['::a00:1', 'IPv4-compatible IPv6 of 10.0.0.1'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['::', 'IPv6 unspecified'],
    ['fc00::1', 'unique-local fc00::/7'],
    ['fd12::1', 'unique-local fd00::/8'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone id'],
    ['fec0::1', 'deprecated site-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard-only'],
    // IPv4 hidden in IPv6
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped RFC 1918'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['64:ff9b::a00:1', 'NAT64 (RFC 6052) of 10.0.0.1'],
    ['64:ff9b::7f00:1', 'NAT64 (RFC 6052) of 127.0.0.1'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 (RFC 8215)'],
    ['2002:a00:1::', '6to4 of 10.0.0.1'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ])('refuses %s (%s)', (address) => {
    expect(isAllowedAddress(address)).toBe(false);
  });

  it.each([
    ['', 'empty'],
    ['localhost', 'a host name'],
    ['example.com', 'a host name'],
    ['not an ip', 'garbage'],
    ['256.1.1.1', 'octet out of range'],
    ['1.2.3.4.5', 'too many octets'],
    ['1.2.3.4/32', 'a CIDR, not an address'],
    ['[::1]', 'bracketed IPv6'],
    ['::1::1', 'two ::'],
    ['gggg::1', 'non-hex IPv6'],
    [' 8.8.8.8', 'leading space'],
    ['8.8.8.8:443', 'with a port'],
  ])('refuses %p (%s)', (address) => {
    expect(isAllowedAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8', 'Google DNS'],
    ['1.1.1.1', 'Cloudflare DNS'],
    ['172.32.0.1', 'just above 172.16/12'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['100.128.0.1', 'just above CGNAT'],
    ['11.0.0.1', 'just above 10/8'],
    ['126.255.255.255', 'just below 127/8'],
    ['169.253.255.255', 'just below 169.254/16'],
    ['192.167.255.255', 'just below 192.168/16'],
    ['198.20.0.1', 'just above 198.18/15'],
    ['223.255.255.255', 'just below multicast'],
    ['2606:4700:4700::1111', 'Cloudflare DNS over IPv6'],
    ['2001:4860:4860::8888', 'Google DNS over IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public address'],
  ])('allows %s (%s)', (address) => {
    expect(isAllowedAddress(address)).toBe(true);
  });
});

describe('isAllowedAddress with explicitly allowed ranges', () => {
  const loopbackOnly = parseCidrs(['127.0.0.1/32']);

  it.each([
    ['127.0.0.1', true],
    ['::ffff:127.0.0.1', true], // judged as the IPv4 address it is
    ['127.0.0.2', false],
    ['127.1.0.1', false],
    ['::1', false], // another family: not in an IPv4 range
    ['10.0.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['8.8.8.8', true], // public stays allowed
    ['garbage', false],
  ])('127.0.0.1/32 allowed: %s → %s', (address, allowed) => {
    expect(isAllowedAddress(address, loopbackOnly)).toBe(allowed);
  });

  it('lets a whole allowed private range through and nothing next to it', () => {
    const lab = parseCidrs(['10.20.0.0/16', 'fd00:1234::/32']);
    expect(isAllowedAddress('10.20.0.1', lab)).toBe(true);
    expect(isAllowedAddress('10.20.255.254', lab)).toBe(true);
    expect(isAllowedAddress('10.21.0.1', lab)).toBe(false);
    expect(isAllowedAddress('10.19.255.255', lab)).toBe(false);
    expect(isAllowedAddress('fd00:1234::1', lab)).toBe(true);
    expect(isAllowedAddress('fd00:1235::1', lab)).toBe(false);
    expect(isAllowedAddress('::1', lab)).toBe(false);
  });

  it('an empty allow-list changes nothing', () => {
    expect(isAllowedAddress('127.0.0.1', [])).toBe(false);
    expect(isAllowedAddress('8.8.8.8', [])).toBe(true);
  });
});

describe('parseCidrs', () => {
  it('parses every range of the list', () => {
    const cidrs = parseCidrs(['127.0.0.1/32', '10.0.0.0/8', '::1/128']);
    expect(cidrs.map(([addr, bits]) => [addr.kind(), addr.toString(), bits])).toEqual([
      ['ipv4', '127.0.0.1', 32],
      ['ipv4', '10.0.0.0', 8],
      ['ipv6', '::1', 128],
    ]);
  });

  it('parses an empty list to no ranges', () => {
    expect(parseCidrs([])).toEqual([]);
  });

  it.each(['garbage', '127.0.0.1', '127.0.0.1/33', '10.0.0.0/-1', '::1/129', '/8', '300.0.0.0/8', ''])(
    'rejects %p',
    (bad) => {
      expect(() => parseCidrs(['127.0.0.1/32', bad])).toThrow(`"${bad}" is not a CIDR range`);
    },
  );
});
