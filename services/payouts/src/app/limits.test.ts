import { refusal, untouched, testCaller } from '@travel/testkit/src/doubles';
import { contractAt } from '@travel/contracts';
import { MAX_BATCH_ENTRIES, MIN_BATCH_ENTRIES } from '../domain/limits';
import { BatchesApp } from './batches';

// Issue 20 §2: a batch create that skipped the contract validator still holds 1 to 500 entry ids; the
// refusal comes before the batch is written or any entry reserved (docs/decisions/0107).

const caller = testCaller({ permissions: ['ManagePayouts'] });

const app = () =>
  new BatchesApp(
    untouched('repos'),
    untouched('entries'),
    untouched('payees'),
    untouched('ready'),
    untouched('logger'),
    { reservationMs: 600_000, entriesTimeoutMs: 30_000 },
  );

const ids = (n: number) =>
  Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('a payout batch create is bounded in the use case', () => {
  it.each([
    [ids(501), 'must NOT have more than 500 items'],
    [[], 'must NOT have fewer than 1 items'],
    [undefined, 'must NOT have fewer than 1 items'],
    ['00000000-0000-4000-8000-000000000001', 'must be array'],
    [[42], 'must hold entry ids (strings)'],
  ])('entryIds %#: 400 VALIDATION_FAILED under errors.entryIds', async (entryIds, message) => {
    const err = await refusal(() =>
      app().create(caller, { entryIds: entryIds as string[], payoutMethod: 'BankTransfer' }),
    );
    expect(err.status).toBe(400);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ entryIds: [message] });
  });

  it('the bounds are the contract’s', () => {
    expect(contractAt('/components/schemas/PayoutBatchCreate/properties/entryIds/minItems')).toBe(MIN_BATCH_ENTRIES);
    expect(contractAt('/components/schemas/PayoutBatchCreate/properties/entryIds/maxItems')).toBe(MAX_BATCH_ENTRIES);
  });
});
