import { AppError, conflict, type FieldErrors } from '@travel/platform';

/** Throws 400 VALIDATION_FAILED with every collected field error, if there is any. */
export function throwIfInvalid(...sources: FieldErrors[]): void {
  const errors: FieldErrors = {};
  for (const source of sources)
    for (const [field, messages] of Object.entries(source)) (errors[field] ??= []).push(...messages);
  if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);
}

const ATTEMPTS = 5;

/**
 * Optimistic concurrency without transactions (as employees, docs/decisions/0015): `attempt` reads,
 * decides and writes conditionally on the revision it read, answering undefined when another write came
 * first; it then runs again on fresh state. After a few lost races the caller gets 409.
 */
export async function withRevisionRetry<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  attempts = ATTEMPTS,
): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
  }
  throw conflict(`The ${what} was changed by other requests at the same time; read it again and retry.`);
}
