// Conditional GETs and delta sync through the gateway (issue 25; docs/decisions/0155, 0156): every read
// answers with an ETag, If-None-Match gets 304 while nothing changed and never after a change (also under
// writes racing the reads), the ETag differs between callers who see different bodies, and a partner keeps
// a copy with `updatedSince` and `nextCursor`; a cursor that is not the query's own is 400.
import type { ApiClient } from '@travel/testkit';
import { employee, limitedCaller, unique } from '@travel/employees/test/support/org-fixtures';
import {
  etagOf,
  expectBadCursorsRefused,
  expectNoStaleNotModified,
  RACING_READERS_ENV,
} from './support/conditional-checks';
import { startE2eStack, type E2eStack } from './support/stack';

describe('conditional reads and delta sync', () => {
  let stack: E2eStack;
  let owner: ApiClient;

  beforeAll(async () => {
    stack = await startE2eStack('conditional-reads', RACING_READERS_ENV);
    owner = (await stack.tenant('HR')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const writable = (e: Record<string, unknown>) => ({ firstName: e.firstName, lastName: e.lastName });

  it('answers every read with an ETag and 304 for If-None-Match while nothing changed', async () => {
    const e = await employee(owner);
    for (const path of ['/api/v1/company', `/api/v1/employees/${e.id}`, '/api/v1/employees?pageSize=5']) {
      const first = await owner.get(path);
      expect(first.status).toBe(200);
      const tag = etagOf(first);
      expect(tag).toMatch(/^W\/".+"$/);
      const again = await owner.get(path, { 'if-none-match': tag! });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(etagOf(again)).toBe(tag);
      expect(again.headers.get('vary')).toMatch(/authorization/i);
    }
  });

  it('answers 200 with the new record and a new ETag after a write', async () => {
    const e = await employee(owner, { position: 'Before' });
    const path = `/api/v1/employees/${e.id}`;
    const listPath = '/api/v1/employees?pageSize=100';
    const [one, list] = [await owner.get(path), await owner.get(listPath)];
    const updated = await owner.put(path, { ...writable(e), position: 'After' });
    expect(updated.status).toBe(200);
    const reread = await owner.get(path, { 'if-none-match': etagOf(one)! });
    expect(reread.status).toBe(200);
    expect(reread.body.position).toBe('After');
    expect(etagOf(reread)).not.toBe(etagOf(one));
    const relisted = await owner.get(listPath, { 'if-none-match': etagOf(list)! });
    expect(relisted.status).toBe(200);
    expect(relisted.body.items.find((x: { id: string }) => x.id === e.id).position).toBe('After');

    const created = await employee(owner);
    const afterCreate = await owner.get(listPath, { 'if-none-match': etagOf(relisted)! });
    expect(afterCreate.status).toBe(200);
    expect(afterCreate.body.total).toBe(relisted.body.total + 1);
    expect(afterCreate.body.items.map((x: { id: string }) => x.id)).toContain(created.id);
  });

  it('never answers 304 for a body older than a write finished before the read began', async () => {
    const e = await employee(owner, { position: 'p0' });
    const path = `/api/v1/employees/${e.id}`;
    const listPath = `/api/v1/employees?q=${encodeURIComponent(e.lastName)}`;
    const positionOf = (body: any): number =>
      Number(String(body.items ? body.items[0].position : body.position).slice(1));
    await expectNoStaleNotModified(
      owner,
      [path, listPath],
      async (k) => {
        const res = await owner.put(path, { ...writable(e), position: `p${k}` });
        expect(res.status).toBe(200);
      },
      positionOf,
      25,
    );
    // Quiet again: the last body read is current and its ETag answers 304.
    const last = await owner.get(path);
    expect(last.body.position).toBe('p25');
    expect((await owner.get(path, { 'if-none-match': etagOf(last)! })).status).toBe(304);
  });

  it('gives callers who see different bodies different ETags, and no 304 for the other caller’s', async () => {
    const target = await employee(owner, { email: `${unique('etag')}@example.hr` });
    const limited = await limitedCaller(owner, []);
    const path = `/api/v1/employees/${target.id}`;
    const full = await owner.get(path);
    const summary = await limited.api.get(path);
    expect(full.body.email).toBe(target.email);
    expect(summary.body.email).toBeUndefined();
    expect(etagOf(full)).not.toBe(etagOf(summary));
    const crossed = await limited.api.get(path, { 'if-none-match': etagOf(full)! });
    expect(crossed.status).toBe(200);
    expect(crossed.body.email).toBeUndefined();
    expect((await limited.api.get(path, { 'if-none-match': etagOf(summary)! })).status).toBe(304);
  });

  it('delta sync: updatedSince and nextCursor give exactly the records edited since, oldest edit first', async () => {
    const t = (await stack.tenant('CZ')).api;
    const people = [];
    for (let i = 0; i < 6; i++) people.push(await employee(t, { lastName: `Sync${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 5)); // editedAt has millisecond precision
    const since = new Date().toISOString();
    const changed = [people[4], people[1], people[3]];
    for (const p of changed)
      expect((await t.put(`/api/v1/employees/${p.id}`, { ...writable(p), position: 'New' })).status).toBe(200);

    const first = await t.get(`/api/v1/employees?updatedSince=${since}&pageSize=2`);
    expect(first.status === 200 ? '' : first.text).toBe('');
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, total: 3, totalPages: 2 });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await t.get(
      `/api/v1/employees?updatedSince=${since}&pageSize=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(second.status).toBe(200);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.items, ...second.body.items].map((x: { id: string }) => x.id);
    expect(ids).toEqual(changed.map((p) => p.id)); // in the order they were edited
    const edited = [...first.body.items, ...second.body.items].map((x: { editedAt: string }) => x.editedAt);
    expect([...edited].sort()).toEqual(edited);

    // Page-number order has no cursor.
    expect((await t.get('/api/v1/employees?pageSize=2')).body.nextCursor).toBeNull();
  });

  it('refuses a malformed, altered or foreign cursor with 400 VALIDATION_FAILED under cursor', async () => {
    await employee(owner);
    await employee(owner);
    await expectBadCursorsRefused(owner, '/api/v1/employees', 'status=Active');
  });
});
