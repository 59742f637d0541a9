import { contractAt } from '@travel/contracts';
import {
  AppError,
  checkItems,
  PAGE_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  pageRequest,
  paginate,
  QUERY_TIMESTAMP_MAX_LENGTH,
  listRequest,
  requireItems,
  type FieldErrors,
  type TenantScope,
} from './index';

const refusal = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('paging bounds hold without the contract validator (docs/decisions/0107)', () => {
  it('reads the documented defaults and in-range values', () => {
    expect(pageRequest({})).toEqual({ page: 1, pageSize: 20 });
    expect(pageRequest({ page: '3', pageSize: '100' })).toEqual({ page: 3, pageSize: 100 });
  });

  it.each([
    [{ pageSize: '101' }, 'pageSize', 'must be <= 100'],
    [{ pageSize: '1000000' }, 'pageSize', 'must be <= 100'],
    [{ pageSize: '0' }, 'pageSize', 'must be >= 1'],
    [{ pageSize: '-5' }, 'pageSize', 'must be >= 1'],
    [{ pageSize: '2.5' }, 'pageSize', 'must be integer'],
    [{ pageSize: 'all' }, 'pageSize', 'must be integer'],
    [{ page: '0' }, 'page', 'must be >= 1'],
    [{ page: '1000001' }, 'page', 'must be <= 1000000'],
    [{ page: ['1', '2'] }, 'page', 'must be integer'],
  ])('%j is 400 VALIDATION_FAILED under errors.%s', (query, field, message) => {
    const err = refusal(() => pageRequest(query));
    expect(err.status).toBe(400);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ [field]: [message] });
  });

  it('paginate refuses an oversized request a use case built itself, before any read', async () => {
    const scope = {
      count: () => Promise.reject(new Error('read')),
      find: () => {
        throw new Error('read');
      },
    } as unknown as TenantScope<{ tenantId: string }>;
    await expect(paginate(scope, {}, { page: 1, pageSize: 5000 }, { _id: 1 }, (d) => d)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { pageSize: ['must be <= 100'] },
    });
  });

  it('the bounds are the contract’s figures', () => {
    expect(contractAt('/components/parameters/PageSize/schema/maximum')).toBe(PAGE_SIZE_MAX);
    expect(contractAt('/components/parameters/PageSize/schema/default')).toBe(PAGE_SIZE_DEFAULT);
    expect(contractAt('/components/parameters/Page/schema/maximum')).toBe(PAGE_MAX);
  });
});

describe('list size guards', () => {
  it('adds "must NOT have more than N items" under the field; an omitted list passes', () => {
    const errors: FieldErrors = {};
    checkItems(errors, 'approverIds', new Array(51).fill('x'), 50);
    checkItems(errors, 'entryIds', [], 500, 1);
    checkItems(errors, 'costCenterIds', undefined, 100);
    checkItems(errors, 'files', 'not a list', 5);
    expect(errors).toEqual({
      approverIds: ['must NOT have more than 50 items'],
      entryIds: ['must NOT have fewer than 1 items'],
      files: ['must be array'],
    });
  });

  it('requireItems throws the documented 400 body', () => {
    const err = refusal(() => requireItems('entryIds', new Array(501).fill('x'), 500, 1));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ entryIds: ['must NOT have more than 500 items'] });
  });
});

describe('timestamps in queries have a bounded length (issue 35 §4, docs/decisions/0192)', () => {
  it("is the contract's bound, for every date-time query parameter", () => {
    expect(contractAt('/components/schemas/QueryTimestamp/maxLength')).toBe(QUERY_TIMESTAMP_MAX_LENGTH);
    type Schema = { format?: string; maxLength?: number };
    type Parameter = { name: string; in: string; schema?: Schema };
    const resolved = <T>(node: unknown): T => {
      const ref = (node as { $ref?: string }).$ref;
      return (ref ? contractAt(ref.slice(1)) : node) as T;
    };
    const paths = contractAt('/paths') as Record<string, Record<string, { parameters?: unknown[] }>>;
    const timestamps = Object.entries(paths).flatMap(([path, item]) =>
      Object.values(item).flatMap((op) =>
        (op.parameters ?? [])
          .map((p) => resolved<Parameter>(p))
          .map((p) => ({ ...p, schema: p.schema && resolved<Schema>(p.schema) }))
          .filter((p) => p.in === 'query' && p.schema?.format === 'date-time')
          .map((p) => [`${path} ${p.name}`, p.schema!.maxLength] as const),
      ),
    );
    expect(timestamps.length).toBeGreaterThan(10); // updatedSince of every list, createdFrom, createdBefore
    for (const [parameter, maxLength] of timestamps)
      expect({ parameter, maxLength }).toEqual({ parameter, maxLength: QUERY_TIMESTAMP_MAX_LENGTH });
  });

  it('takes the longest instant the contract allows: nanoseconds and an offset', () => {
    const longest = '2026-11-26T05:00:00.123456789+01:00';
    expect(longest).toHaveLength(QUERY_TIMESTAMP_MAX_LENGTH);
    expect(listRequest({ updatedSince: longest }).updatedSince).toEqual(new Date('2026-11-26T04:00:00.123Z'));
  });

  it('refuses a longer one with 400 VALIDATION_FAILED under its name, worded like the contract validator', () => {
    const err = refusal(() => listRequest({ updatedSince: `2026-11-26T05:00:00.${'1'.repeat(5000)}Z` }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ updatedSince: ['must NOT have more than 35 characters'] });
  });
});
