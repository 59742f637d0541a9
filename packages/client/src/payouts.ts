import { TravelApiError } from './errors';
import type { components } from './openapi';
import type { PaginateOptions } from './paging';
import type { TravelApi } from './travel-api';

export type PayoutMethod = components['schemas']['PayoutBatchCreate']['payoutMethod'];
export type PayoutBatch = components['schemas']['PayoutBatch'];
export type ReadyForPayout = components['schemas']['ReadyForPayout'];

/** The contract's `maxItems` of `PayoutBatchCreate.entryIds`: more ready entries go into further batches. */
export const MAX_ENTRIES_PER_BATCH = 500;

export interface PayOutOptions {
  payoutMethod: PayoutMethod;
  /** Only the ready entries this keeps (say, one currency); all of them otherwise. */
  include?: (row: ReadyForPayout) => boolean;
  /** Page size of the ready list (100 by default) and a hook after each page. */
  pageSize?: number;
  onPage?: PaginateOptions<'/api/v1/payouts/ready'>['onPage'];
  signal?: AbortSignal;
}

export interface PayOutResult {
  /** The batches created, in order (none when nothing was ready). */
  batches: PayoutBatch[];
  /** Every entry read from the ready list, once, in list order. */
  readyEntryIds: string[];
  /**
   * Entries the server refused when the batch was created (paid out by someone else meanwhile, no longer
   * approved, …), with its messages; the batch was then created without them.
   */
  refused: Record<string, string[]>;
}

/**
 * SPEC "Payouts": read every page of the ready list, de-duplicate by id, and only then create the batch.
 * Rows move between pages while the list is read (a newly approved entry pushes them back, a paid one pulls
 * them forward), so the same entry can come twice; it is sent once. Creating a batch is all or nothing:
 * when some entries are refused (keyed `entryIds[i]`), the batch is created again without them
 * (docs/decisions/0153).
 */
export async function payOutReadyEntries(client: TravelApi, options: PayOutOptions): Promise<PayOutResult> {
  const ready = new Map<string, ReadyForPayout>();
  for await (const row of client.paginate('/api/v1/payouts/ready', undefined, {
    pageSize: options.pageSize,
    onPage: options.onPage,
    signal: options.signal,
  }))
    if (!ready.has(row.id) && (options.include?.(row) ?? true)) ready.set(row.id, row);

  const readyEntryIds = [...ready.keys()];
  const result: PayOutResult = { batches: [], readyEntryIds, refused: {} };
  for (let i = 0; i < readyEntryIds.length; i += MAX_ENTRIES_PER_BATCH) {
    let entryIds = readyEntryIds.slice(i, i + MAX_ENTRIES_PER_BATCH);
    while (entryIds.length > 0) {
      const refused = await createBatch(client, options, entryIds, result);
      if (refused.size === 0) break;
      entryIds = entryIds.filter((id) => !refused.has(id));
    }
  }
  return result;
}

/** Creates one batch; answers the refused ids (none when created), or throws any other error. */
async function createBatch(
  client: TravelApi,
  options: PayOutOptions,
  entryIds: string[],
  result: PayOutResult,
): Promise<Set<string>> {
  try {
    const { data } = await client.api.POST('/api/v1/payouts', {
      body: { payoutMethod: options.payoutMethod, entryIds },
      signal: options.signal,
    });
    result.batches.push(data!);
    return new Set();
  } catch (error) {
    const refused = error instanceof TravelApiError ? refusedEntries(error, entryIds) : undefined;
    if (!refused) throw error;
    for (const [id, messages] of refused) result.refused[id] = [...messages];
    return new Set(refused.keys());
  }
}

/** The entries a 400 refused, when every field error names one of them (`entryIds[i]`); else undefined. */
function refusedEntries(error: TravelApiError, entryIds: string[]): Map<string, readonly string[]> | undefined {
  if (error.status !== 400 || error.code !== 'VALIDATION_FAILED') return undefined;
  const keys = Object.keys(error.errors);
  const refused = new Map<string, readonly string[]>();
  for (const key of keys) {
    const index = /^entryIds\[(\d+)\]$/.exec(key)?.[1];
    const id = index === undefined ? undefined : entryIds[Number(index)];
    if (id === undefined) return undefined;
    refused.set(id, error.errors[key]!);
  }
  return refused.size > 0 ? refused : undefined;
}
