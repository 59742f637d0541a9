import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isAllowedAddress, type Cidr } from '../domain/address-policy';

export interface CheckedDestination {
  url: URL;
  /** The address every connection of this attempt goes to (no second DNS answer can redirect it). */
  address: string;
  family: 4 | 6;
}

export class DestinationRefused extends Error {}

export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

/** The system resolver (what production uses); tests inject their own to play DNS rebinding. */
export const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Resolves the host and refuses it unless every address it resolves to is allowed: a name with one
 * public and one private answer is refused outright, since either could be chosen at connect time.
 */
export async function checkDestination(
  rawUrl: string,
  allowed: Cidr[],
  resolve: Resolve = systemResolve,
): Promise<CheckedDestination> {
  const url = new URL(rawUrl);
  if (url.protocol !== 'https:') throw new DestinationRefused('the URL must use HTTPS');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const answers = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (answers.length === 0) throw new Error(`${host} has no address`);
  const refused = answers.find((a) => !isAllowedAddress(a.address, allowed));
  if (refused) throw new DestinationRefused(`${host} resolves to ${refused.address}, which is not a public address`);
  const first = answers[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
