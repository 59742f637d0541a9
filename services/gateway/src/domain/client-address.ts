/**
 * The address a request came from, for limits per client: the socket's peer by default. The gateway does
 * not believe `X-Forwarded-For` unless told how many proxies in front of it append to it (`trustedHops`,
 * as Express's numeric `trust proxy`): then it is the entry that many places from the right of the chain
 * `X-Forwarded-For…, socket peer`, the address the outermost trusted proxy saw. Entries further left are
 * whatever the client wrote and are never used.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedHops: number,
): string {
  const peer = socketAddress ?? 'unknown';
  if (trustedHops <= 0 || !forwardedFor) return peer;
  const chain = [
    ...(Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    peer,
  ];
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!.slice(0, 64);
}

/**
 * The key a client address is limited by: an IPv4 address (also written IPv4-mapped, `::ffff:a.b.c.d`) as
 * itself, an IPv6 address by its /64 prefix (one host usually holds a whole /64, so counting single IPv6
 * addresses would not limit it), anything else as written.
 */
export function limitKeyOf(address: string): string {
  const a = address.toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1]!;
  if (!a.includes(':')) return a;
  const [left, right, ...more] = a.split('::');
  if (more.length > 0) return a;
  const groupsOf = (s: string | undefined) =>
    s ? s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : [];
  const head = groupsOf(left);
  const tail = groupsOf(right);
  const groups = right === undefined ? head : [...head, ...Array(8 - head.length - tail.length).fill('0'), ...tail];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return a;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
