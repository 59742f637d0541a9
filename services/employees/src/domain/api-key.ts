import { createHash, randomBytes } from 'node:crypto';
// The key's form alone (no I/O), shared with the gateway, which refuses other forms before a lookup.
import { API_KEY_PREFIX as PREFIX, API_KEY_RANDOM_BYTES } from '@travel/contracts/src/api-key-format';

// API keys carry 256 bits of randomness, so a fast SHA-256 digest is a sound at-rest form: there is
// nothing to brute-force that a slow password hash would protect. The digest doubles as the lookup key.
export interface IssuedKey {
  key: string;
  hash: string;
  /** First characters, safe to show in listings so a user can tell keys apart. */
  hint: string;
}

export function issueApiKey(): IssuedKey {
  const key = PREFIX + randomBytes(API_KEY_RANDOM_BYTES).toString('base64url');
  return { key, hash: hashApiKey(key), hint: key.slice(0, PREFIX.length + 6) };
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

export const looksLikeApiKey = (key: string): boolean =>
  key.startsWith(PREFIX) && key.length >= PREFIX.length + 40 && key.length <= 128;

export interface ApiKey {
  _id: string;
  tenantId: string;
  /** The employee whose permissions the key carries. */
  employeeId: string;
  name: string;
  hint: string;
  hash: string;
  /** Who issued it: an employee id, or null when the operator command did. */
  createdByEmployeeId: string | null;
  /**
   * The most the key may ever do: the flags its issuer held when issuing it (docs/decisions/0104). Null
   * for the operator's keys, which carry their employee's flags as they are.
   */
  permissionCap: string[] | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/**
 * What a key may do now: its employee's current flags, within the cap its issuer gave it. A flag granted
 * to the employee later does not reach a key whose issuer did not hold it.
 */
export const effectivePermissions = (employeeFlags: readonly string[], cap: readonly string[] | null): string[] =>
  cap === null ? [...employeeFlags] : employeeFlags.filter((flag) => cap.includes(flag));

/** The issuer of a key that acts for another employee (audit logs name them); undefined otherwise. */
export const issuerActingFor = (k: Pick<ApiKey, 'employeeId' | 'createdByEmployeeId'>): string | undefined =>
  k.createdByEmployeeId && k.createdByEmployeeId !== k.employeeId ? k.createdByEmployeeId : undefined;

/** What resolution needs to know of a key's employee and of its issuer, as stored now. */
export interface KeyPerson {
  status: string;
  isArchived?: boolean;
  permissions?: string[];
}

const inForce = (p: KeyPerson | undefined): p is KeyPerson => !!p && p.status === 'Active' && !p.isArchived;

/**
 * The flags a key acts with now, or undefined when it does not work at all (docs/decisions/0104, 0197).
 * Its employee must be active and unarchived. A key issued by someone else also follows its issuer as
 * they are now: within the issuer's current flags, and dead (like the issuer's own keys) once the issuer
 * is archived, inactive or gone. Operator keys (no issuer) keep their employee's flags within their cap.
 */
export function keyRights(
  key: Pick<ApiKey, 'employeeId' | 'createdByEmployeeId' | 'permissionCap'>,
  employee: KeyPerson | undefined,
  issuer: KeyPerson | undefined,
): string[] | undefined {
  if (!inForce(employee)) return undefined;
  const own = effectivePermissions(employee.permissions ?? [], key.permissionCap ?? null);
  if (!issuerActingFor(key)) return own;
  if (!inForce(issuer)) return undefined;
  const issuerFlags = issuer.permissions ?? [];
  return own.filter((flag) => issuerFlags.includes(flag));
}
