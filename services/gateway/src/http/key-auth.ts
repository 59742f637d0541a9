import type { ServerResponse } from 'node:http';
import { AppError } from '@travel/platform';
import type { KeyCheck } from '../app/key-check';

/**
 * The caller an API key stands for, or the documented refusal: one answer for a partner's call and for the
 * console's sign-in, so both refuse a key the same way (401, 429 with Retry-After, 503 when the check fails).
 */
export async function callerOfKey(keys: KeyCheck, key: string, client: string, res: ServerResponse) {
  let checked;
  try {
    checked = await keys.check(key, client);
  } catch (cause) {
    throw new AppError('SERVICE_UNAVAILABLE', 'The API key could not be checked; try again.', undefined, { cause });
  }
  if (checked.outcome === 'malformed')
    throw new AppError('UNAUTHORIZED', 'This is not an API key: keys are "tek_" and 43 characters of base64url.');
  if (checked.outcome === 'limited') {
    res.setHeader('retry-after', String(checked.retryAfterSeconds));
    throw new AppError(
      'RATE_LIMITED',
      `Too many unknown API keys from this address; retry in ${checked.retryAfterSeconds} s.`,
    );
  }
  if (checked.outcome === 'unknown') throw new AppError('UNAUTHORIZED', 'The API key is unknown or revoked.');
  return checked.caller;
}
