import { contractAt } from '@travel/contracts';
import {
  AppError,
  checkItems,
  PAGE_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  pageRequest,
  paginate,
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
