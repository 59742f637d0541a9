// The size of a payout batch (docs/decisions/0107): it holds in the use case whether or not the contract
// validator ran. The figures are the contract's (`PayoutBatchCreate.entryIds`); limits.test.ts compares.
import type { FieldErrors } from '@travel/platform';
import { checkItems } from '@travel/platform/src/limits';

export const MIN_BATCH_ENTRIES = 1;
export const MAX_BATCH_ENTRIES = 500;

/** Field errors of a create's `entryIds` as a list: 1 to 500 ids, each a string; checked before any entry is reserved. */
export function entryIdListErrors(entryIds: unknown): FieldErrors {
  const errors: FieldErrors = {};
  checkItems(errors, 'entryIds', entryIds ?? [], MAX_BATCH_ENTRIES, MIN_BATCH_ENTRIES);
  if (!errors.entryIds && (entryIds as unknown[]).some((id) => typeof id !== 'string'))
    errors.entryIds = ['must hold entry ids (strings)'];
  return errors;
}
