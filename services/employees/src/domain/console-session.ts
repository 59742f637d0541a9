import type { FieldErrors } from '@travel/platform';

/** The longest a console session lives (the gateway's sign-in lasts 8 hours): no record outlives it. */
export const CONSOLE_SESSION_MAX_MS = 8 * 60 * 60 * 1000;

/** A console session the gateway recorded at sign-in (docs/decisions/0193). */
export interface ConsoleSessionRecord {
  sessionId: string;
  apiKeyId: string;
  createdAt: Date;
  expiresAt: Date;
}

/** The gateway's session ids: 128 random bits in base64url. Anything else names no session. */
export const isSessionId = (raw: unknown): raw is string => typeof raw === 'string' && /^[\w-]{22}$/.test(raw);

/**
 * The record of a sign-in from the gateway's body. Its end is the gateway's, but never later than 8 hours
 * from now: a clock ahead of ours, or a wrong body, cannot keep a session in the store longer.
 */
export function consoleSessionRecord(
  sessionId: string,
  body: unknown,
  now: Date,
): { record: ConsoleSessionRecord; errors: FieldErrors } {
  const { apiKeyId, expiresAt } = (body ?? {}) as { apiKeyId?: unknown; expiresAt?: unknown };
  const errors: FieldErrors = {};
  if (typeof apiKeyId !== 'string' || !/^[\w-]{1,100}$/.test(apiKeyId)) errors.apiKeyId = ['must be an API key id'];
  const end = typeof expiresAt === 'string' ? new Date(expiresAt) : new Date(NaN);
  if (Number.isNaN(end.getTime())) errors.expiresAt = ['must be a date-time'];
  else if (end <= now) errors.expiresAt = ['must be in the future'];
  const latest = now.getTime() + CONSOLE_SESSION_MAX_MS;
  const record = {
    sessionId,
    apiKeyId: String(apiKeyId),
    createdAt: now,
    expiresAt: new Date(Math.min(end.getTime() || latest, latest)),
  };
  return { record, errors };
}
