import ipaddr from 'ipaddr.js';

// Where a webhook may be sent: only public unicast addresses. Everything a partner could use to reach
// our own network is refused: loopback, RFC 1918, link-local (cloud metadata at 169.254.169.254),
// CGNAT, benchmark, documentation and reserved ranges, unique-local and link-local IPv6, and IPv4
// hidden in IPv6 (mapped, NAT64, 6to4, Teredo). Local tests may allow named ranges explicitly.
const BLOCKED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '255.255.255.255/32',
].map((c) => ipaddr.parseCIDR(c));

// IPv6 ranges ipaddr.js calls "unicast" that still reach IPv4 or nothing public: IPv4-compatible
// (::a.b.c.d, deprecated but routable on some stacks) and documentation.
const BLOCKED_V6 = ['::/96', '2001:db8::/32'].map((c) => ipaddr.parseCIDR(c));

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

export function parseCidrs(list: string[]): Cidr[] {
  return list.map((c) => {
    try {
      return ipaddr.parseCIDR(c) as Cidr;
    } catch {
      throw new Error(`"${c}" is not a CIDR range`);
    }
  });
}

const inAny = (addr: ipaddr.IPv4 | ipaddr.IPv6, cidrs: Cidr[]) =>
  cidrs.some(([range, bits]) => addr.kind() === range.kind() && addr.match(range, bits));

/** True when `address` may be contacted: public unicast, or inside an explicitly allowed range. */
export function isAllowedAddress(address: string, allowed: Cidr[] = []): boolean {
  if (!ipaddr.isValid(address)) return false;
  // Unwraps IPv4-mapped IPv6 (::ffff:10.0.0.1) so it is judged as the IPv4 address it is.
  const addr = ipaddr.process(address);
  if (inAny(addr, allowed)) return true;
  if (addr.kind() === 'ipv4') return !inAny(addr, BLOCKED_V4 as Cidr[]);
  return addr.range() === 'unicast' && !inAny(addr, BLOCKED_V6 as Cidr[]);
}
