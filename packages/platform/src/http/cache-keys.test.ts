import type { Request, Response } from 'express';
import type { CollectionState, CollectionVersions } from '../mongo/collection-versions';
import { ListTotals, listPage } from '../mongo/list-page';
import { REMEMBERED_URL_MAX_LENGTH } from '../limits';
import { wholeKey } from '../whole-key';
import { ConditionalReads } from './conditional-read';

// Issue 35 §4 (docs/decisions/0192): remembered answers and list totals are keyed by the whole tenant, URL,
// view and version, never by a shortened hash of them. Every hash made here collides (one digest for any
// input), as a crafted or unlucky collision of a shortened hash would: no tenant, view, URL or query may
// then be given what was remembered for another.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  const colliding = { update: () => colliding, digest: () => 'ALWAYS-THE-SAME-DIGEST' };
  return { ...actual, createHash: () => colliding };
});

const settled: CollectionState = { epoch: 'e1', version: 7, settled: true, pending: 0 };
const versions = { state: async () => settled } as unknown as CollectionVersions;

function get(url: string) {
  const sent: { status: number; body?: string } = { status: 200 };
  const req = {
    originalUrl: url,
    baseUrl: '/api/v1',
    route: { path: '/employees' },
    get: () => undefined,
  };
  const res = {
    set: () => res,
    status: (code: number) => ((sent.status = code), res),
    end: () => res,
    type: () => res,
    send: (body: string) => ((sent.body = body), res),
  };
  return { req: req as unknown as Request, res: res as unknown as Response, sent };
}

const read = (tenantId: string, view: string) => ({ tenantId, collections: ['employees'], view });

async function answer(reads: ConditionalReads, tenantId: string, url: string, view: string): Promise<unknown> {
  const x = get(url);
  await reads.answer(x.req, x.res, read(tenantId, view), async () => ({ tenantId, url, view }));
  return JSON.parse(x.sent.body!);
}

describe('cache keys are whole tuples, never a shortened hash (issue 35 §4)', () => {
  it('wholeKey: tuples that differ give different keys, whatever separators their parts hold', () => {
    const tuples = [
      ['t1', '/api/v1/employees?q=a|b', 'e1|ManageEmployees'],
      ['t1|/api/v1/employees?q=a', 'b|e1', 'ManageEmployees'],
      ['t1', '/api/v1/employees?q=a', 'b|e1|ManageEmployees'],
      ['t1', '/api/v1/employees?q=a|b|e1', 'ManageEmployees'],
      ['t12', ':/a', ''],
      ['t1', '2:/a', ''],
      ['t1', '', '2:/a'],
      ['', '', ''],
      ['', ''],
    ];
    const keys = tuples.map((t) => wholeKey(...t));
    expect(new Set(keys).size).toBe(tuples.length);
    for (const [i, t] of tuples.entries()) for (const part of t) expect(keys[i]).toContain(part);
  });

  it('wholeKey keeps every part whole: a long URL is not shortened into the key', () => {
    const url = `/api/v1/employees?q=${'x'.repeat(1500)}`;
    expect(wholeKey('t1', url, 'v')).toContain(url);
    expect(wholeKey('t1', url, 'v')).not.toBe(wholeKey('t1', `${url}y`, 'v'));
  });

  it('another tenant with the same URL, view and version is never sent the remembered body', async () => {
    const reads = new ConditionalReads(versions);
    expect(await answer(reads, 'tenant-a', '/api/v1/employees', 'e1|')).toMatchObject({ tenantId: 'tenant-a' });
    expect(await answer(reads, 'tenant-b', '/api/v1/employees', 'e1|')).toMatchObject({ tenantId: 'tenant-b' });
  });

  it('another view (other rights) of the same tenant and URL is never sent the remembered body', async () => {
    const reads = new ConditionalReads(versions);
    await answer(reads, 't1', '/api/v1/employees', 'e1|ManageEmployees');
    expect(await answer(reads, 't1', '/api/v1/employees', 'e2|')).toMatchObject({ view: 'e2|' });
  });

  it('another URL of the same tenant and view is never sent the remembered body', async () => {
    const reads = new ConditionalReads(versions);
    await answer(reads, 't1', '/api/v1/employees?status=Active', 'e1|');
    expect(await answer(reads, 't1', '/api/v1/employees?status=Inactive', 'e1|')).toMatchObject({
      url: '/api/v1/employees?status=Inactive',
    });
  });

  it('readers of different tenants at the same moment never share one production', async () => {
    const reads = new ConditionalReads(versions);
    const [a, b] = await Promise.all([
      answer(reads, 'tenant-a', '/api/v1/employees', 'e1|'),
      answer(reads, 'tenant-b', '/api/v1/employees', 'e1|'),
    ]);
    expect(a).toMatchObject({ tenantId: 'tenant-a' });
    expect(b).toMatchObject({ tenantId: 'tenant-b' });
  });

  it('the remembered-GET fast path (0182) gives each tenant and view its own body', async () => {
    const reads = new ConditionalReads(versions);
    await answer(reads, 'tenant-a', '/api/v1/employees', 'e1|');
    await answer(reads, 'tenant-b', '/api/v1/employees', 'e1|');
    await answer(reads, 'tenant-a', '/api/v1/employees', 'e2|');
    const body = async (t: string, v: string) =>
      JSON.parse((await reads.remembered(t, '/api/v1/employees', v, undefined))!.body!) as unknown;
    expect(await body('tenant-a', 'e1|')).toEqual({ tenantId: 'tenant-a', url: '/api/v1/employees', view: 'e1|' });
    expect(await body('tenant-b', 'e1|')).toEqual({ tenantId: 'tenant-b', url: '/api/v1/employees', view: 'e1|' });
    expect(await body('tenant-a', 'e2|')).toEqual({ tenantId: 'tenant-a', url: '/api/v1/employees', view: 'e2|' });
    expect(reads.remembered('tenant-b', '/api/v1/employees', 'e2|', undefined)).toBeUndefined();
  });

  it('a URL longer than the bound is answered but not remembered, so no entry can be made huge', async () => {
    const reads = new ConditionalReads(versions);
    const long = `/api/v1/employees?q=${'x'.repeat(REMEMBERED_URL_MAX_LENGTH)}`;
    expect(await answer(reads, 't1', long, 'e1|')).toMatchObject({ url: long });
    expect(reads.remembered('t1', long, 'e1|', undefined)).toBeUndefined();
    const short = '/api/v1/employees';
    await answer(reads, 't1', short, 'e1|');
    expect(reads.remembered('t1', short, 'e1|', undefined)).toBeDefined();
  });

  it('a list total remembered for one query is never the total of another (0157)', async () => {
    const counts: Record<string, number> = { Active: 30, Inactive: 50 };
    const scope = {
      tenantId: 't1',
      collection: 'employees',
      count: (filter: { status: string }) => ({ exec: async () => counts[filter.status]! }),
      find: (filter: { status: string }) => {
        const chain = {
          sort: () => chain,
          skip: () => chain,
          limit: () => chain,
          lean: async () => Array.from({ length: Math.min(counts[filter.status]!, 20) }, (_, i) => ({ _id: `${i}` })),
        };
        return chain;
      },
    };
    const totals = new ListTotals();
    const page = (status: string) =>
      listPage(scope as never, { status }, { page: 1, pageSize: 20 }, { _id: 1 }, (d) => d, {
        state: settled,
        totals,
      });
    expect((await page('Active')).total).toBe(30);
    expect((await page('Inactive')).total).toBe(50);
    expect((await page('Active')).total).toBe(30);
  });
});
