import { AppError, conflict, throwFieldErrors, type FieldErrors } from '../errors';
import { isDuplicateKey } from './connection';

// How every service writes without multi-document transactions (docs/decisions/0015), written once.

/** Throws 400 VALIDATION_FAILED with every collected field error, if there is any. */
export function throwIfInvalid(...sources: FieldErrors[]): void {
  throwFieldErrors('VALIDATION_FAILED', ...sources);
}

/** The filter part that makes an update apply only to the revision it read (legacy documents have none). */
export const atRevision = (rev: number | undefined): Record<string, unknown> =>
  typeof rev === 'number' ? { rev } : { rev: { $exists: false } };

/**
 * A revision-checked write (TenantScope.commit) found that another write came first. Within
 * `withRevisionRetry` the attempt runs again on fresh state; reaching a caller it is 409 CONFLICT.
 */
export class RevisionConflict extends AppError {
  constructor() {
    super('CONFLICT', 'The record was changed by other requests at the same time; read it again and retry.');
  }
}

const ATTEMPTS = 5;

/**
 * Optimistic concurrency without transactions: `attempt` reads, decides and writes conditionally on the
 * revision it read, answering undefined (or throwing RevisionConflict, as TenantScope.commit does) when
 * another write came first; it is then run again on fresh state. After `attempts` lost races the caller
 * gets 409 and can retry.
 */
export async function withRevisionRetry<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  attempts = ATTEMPTS,
): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    let result: T | undefined;
    try {
      result = await attempt();
    } catch (err) {
      if (!(err instanceof RevisionConflict)) throw err;
    }
    if (result !== undefined) return result;
  }
  throw conflict(`The ${what} was changed by other requests at the same time; read it again and retry.`);
}

/**
 * Runs a write guarded by a unique index. A duplicate key (E11000 on insert) is a 409; so is any other
 * write error when `clash` then finds the competing record, because FerretDB answers a unique violation
 * on update with an internal error rather than E11000 (docs/decisions/0002).
 */
export async function uniqueWrite<T>(
  write: () => Promise<T>,
  clash: () => Promise<boolean>,
  detail: string,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof RevisionConflict) throw err; // a lost race, not a clash: the attempt runs again
    if (isDuplicateKey(err) || (await clash().catch(() => false))) throw conflict(detail);
    throw err;
  }
}
