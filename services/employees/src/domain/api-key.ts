import { createHash, randomBytes } from 'node:crypto';

// API keys carry 256 bits of randomness, so a fast SHA-256 digest is a sound at-rest form: there is
// nothing to brute-force that a slow password hash would protect. The digest doubles as the lookup key.
const PREFIX = 'tek_';

export interface IssuedKey {
  key: string;
  hash: string;
  /** First characters, safe to show in listings so a user can tell keys apart. */
  hint: string;
}

export function issueApiKey(): IssuedKey {
  const key = PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), hint: key.slice(0, PREFIX.length + 6) };
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

export const looksLikeApiKey = (key: string): boolean => key.startsWith(PREFIX) && key.length >= PREFIX.length + 40 && key.length <= 128;
