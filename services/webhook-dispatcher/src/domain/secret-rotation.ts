import { integerProblem } from '@travel/platform/src/limits';
import type { FieldErrors } from '@travel/platform/src/errors';

/** The grace of a rotation when the request names none: a day (docs/decisions/0149). */
export const DEFAULT_GRACE_SECONDS = 86_400;
/** The longest grace a rotation may ask for: 7 days (the contract's `maximum`, held here too: 0107). */
export const MAX_GRACE_SECONDS = 7 * 86_400;

/** The secrets of a subscription as stored: sealed (infra/secret-box), never in the clear. */
export interface StoredSecrets {
  secret?: string | null;
  /** The secret the last rotation replaced, still signing until `previousSecretExpiresAt`. */
  previousSecret?: string | null;
  previousSecretExpiresAt?: Date | null;
}

/**
 * The grace period a rotation request asks for, in whole seconds from 0 (cut over at once) to 7 days; no
 * body or no field: a day. Field errors are worded like the contract validator's.
 */
export function gracePeriodOf(body: unknown): { errors: FieldErrors; seconds?: number } {
  if (body === undefined || body === null) return { errors: {}, seconds: DEFAULT_GRACE_SECONDS };
  if (typeof body !== 'object' || Array.isArray(body)) return { errors: { body: ['must be object'] } };
  const unknown = Object.keys(body).filter((k) => k !== 'gracePeriodSeconds');
  if (unknown.length)
    return { errors: Object.fromEntries(unknown.map((k) => [k, ['must NOT have additional properties']])) };
  const value = (body as { gracePeriodSeconds?: unknown }).gracePeriodSeconds;
  if (value === undefined) return { errors: {}, seconds: DEFAULT_GRACE_SECONDS };
  const problem = integerProblem(value, 0, MAX_GRACE_SECONDS);
  return problem ? { errors: { gracePeriodSeconds: [problem] } } : { errors: {}, seconds: value as number };
}

/**
 * What a rotation stores: the new sealed secret, and the one it replaces as `previousSecret` until
 * `now + grace`. At most two secrets are ever active: a secret replaced earlier (the previous one of a
 * rotation still in its grace) stops signing now. A grace of 0 keeps no previous secret.
 */
export function rotated(current: StoredSecrets, newSealed: string, graceSeconds: number, now: Date) {
  const keepsPrevious = graceSeconds > 0 && !!current.secret;
  return {
    secret: newSealed,
    previousSecret: keepsPrevious ? current.secret! : null,
    previousSecretExpiresAt: keepsPrevious ? new Date(now.getTime() + graceSeconds * 1000) : null,
  };
}

/**
 * The sealed secrets an attempt signs with when it is sent at `now`, newest first: the current one, and
 * the replaced one while its grace lasts (the end excluded). Read at send time, so a retry of an old
 * delivery is signed with the secrets active then.
 */
export function signingSecrets(sub: StoredSecrets, now: Date): string[] {
  const secrets = sub.secret ? [sub.secret] : [];
  const until = sub.previousSecretExpiresAt;
  if (sub.previousSecret && until && until.getTime() > now.getTime()) secrets.push(sub.previousSecret);
  return secrets;
}

/** When the replaced secret stops signing, or null when only one secret signs (as the API shows it). */
export function graceEndAt(sub: StoredSecrets, now: Date): string | null {
  const until = sub.previousSecretExpiresAt;
  return sub.previousSecret && until && until.getTime() > now.getTime() ? until.toISOString() : null;
}
