// Cost-center allocations of a travel entry (docs/decisions/0047), through the gateway: percentages summing
// to 100, a cost center the employee may not charge refused when added (inactive, another company's,
// outside a non-empty costCenterIds), existing assignments kept after the employee's list changes.
import type { ApiClient } from '@travel/testkit';
import { costCenter } from '@travel/employees/test/support/org-fixtures';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const TRIP = { departureDate: '2026-11-02', returnDate: '2026-11-04' };

describe('entries: cost-center allocations', () => {
  let stack: EntriesStack;
  let owner: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-alloc');
    owner = (await stack.tenant('SI')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = (body: Record<string, unknown>, api = owner) => api.post('/api/v1/travel-entries', { ...TRIP, ...body });

  it('percentages split the entry and must sum to 100', async () => {
    const [a, b] = [await costCenter(owner), await costCenter(owner)];
    const ok = await post({
      costCenterAllocations: [
        { costCenterId: a, percentage: 33.33 },
        { costCenterId: b, percentage: 66.67 },
      ],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.costCenterAllocations).toEqual([
      { costCenterId: a, percentage: 33.33, amount: null },
      { costCenterId: b, percentage: 66.67, amount: null },
    ]);
    for (const allocations of [
      [{ costCenterId: a, percentage: 50 }],
      [
        { costCenterId: a, percentage: 60 },
        { costCenterId: b, percentage: 60 },
      ],
      [
        { costCenterId: a, percentage: 50 },
        { costCenterId: a, percentage: 50 },
      ],
      [
        { costCenterId: a, percentage: 50 },
        { costCenterId: b, amount: 10 },
      ],
      [{ costCenterId: a, percentage: 100, amount: 5 }],
    ]) {
      const res = await post({ costCenterAllocations: allocations });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.body.errors).some((k) => k.startsWith('costCenterAllocations'))).toBe(true);
    }
  });

  it('amounts must sum to the expense total (zero without expenses, so a positive amount is refused)', async () => {
    const a = await costCenter(owner);
    const res = await post({ costCenterAllocations: [{ costCenterId: a, amount: 100 }] });
    expect(res.status).toBe(400);
    expect(res.body.errors.costCenterAllocations[0]).toContain('expense total');
  });

  it("an inactive cost center or another company's is refused when added", async () => {
    const inactive = await costCenter(owner);
    const cc = await owner.get(`/api/v1/cost-centers/${inactive}`);
    expect((await owner.put(`/api/v1/cost-centers/${inactive}`, { ...cc.body, isActive: false })).status).toBe(200);
    const foreign = await costCenter((await stack.tenant('HR')).api);
    for (const id of [inactive, foreign]) {
      const res = await post({ costCenterAllocations: [{ costCenterId: id, percentage: 100 }] });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty(['costCenterAllocations[0].costCenterId']);
    }
  });

  it("the employee's costCenterIds restrict what is added; existing assignments stay after the list changes", async () => {
    const [allowed, other] = [await costCenter(owner), await costCenter(owner)];
    const emp = await owner.post('/api/v1/employees', {
      firstName: 'Rest',
      lastName: 'Ricted',
      costCenterIds: [allowed],
    });
    expect(emp.status).toBe(201);
    const refused = await post({
      employeeId: emp.body.id,
      costCenterAllocations: [{ costCenterId: other, percentage: 100 }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty(['costCenterAllocations[0].costCenterId']);
    const entry = await post({
      employeeId: emp.body.id,
      costCenterAllocations: [{ costCenterId: allowed, percentage: 100 }],
    });
    expect(entry.status).toBe(201);

    // The employee is now restricted to `other` only: the existing assignment is not removed, an edit keeps it.
    const moved = await owner.put(`/api/v1/employees/${emp.body.id}`, {
      firstName: 'Rest',
      lastName: 'Ricted',
      costCenterIds: [other],
    });
    expect(moved.status).toBe(200);
    const kept = await owner.put(`/api/v1/travel-entries/${entry.body.id}`, { ...entry.body, destination: 'Maribor' });
    expect(kept.status).toBe(200);
    expect(kept.body.costCenterAllocations).toEqual([{ costCenterId: allowed, percentage: 100, amount: null }]);
    // Adding `other` is allowed now; the split is replaced as a whole.
    const split = await owner.put(`/api/v1/travel-entries/${entry.body.id}`, {
      ...kept.body,
      costCenterAllocations: [
        { costCenterId: allowed, percentage: 50, amount: null },
        { costCenterId: other, percentage: 50, amount: null },
      ],
    });
    expect(split.status).toBe(200);
    // A full replace without allocations clears them.
    const { costCenterAllocations: _omitted, ...rest } = split.body;
    const cleared = await owner.put(`/api/v1/travel-entries/${entry.body.id}`, rest);
    expect(cleared.body.costCenterAllocations).toEqual([]);
  });
});
