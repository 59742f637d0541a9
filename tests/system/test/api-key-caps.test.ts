// Issue 20, section 3 (docs/decisions/0104): a key's effective permissions never exceed those its issuer
// held when issuing it, and an entry's audit log names the issuer of a key that acts for someone else.
// Through the gateway (API_KEY_CACHE_MS 0: every request resolves the key anew).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { employeesRepositories } from '@travel/employees/src/infra/repositories';
import { employee, limitedCaller, writable } from '@travel/employees/test/support/org-fixtures';
import { eventually, type ApiClient } from '@travel/testkit';
import { startPayoutsStack, type PayoutsStack } from './support/payouts-stack';

describe('API keys are capped at their issuer’s permissions', () => {
  let stack: PayoutsStack;

  beforeAll(async () => {
    stack = await startPayoutsStack('api-key-caps');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** An entry of the key's employee with 900 CZK due, submitted in a company without a workflow (so approved). */
  async function approvedEntry(api: ApiClient): Promise<string> {
    const res = await api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-16',
      returnDate: '2026-11-17',
      currencyCode: 'CZK',
      expenses: [{ kind: 'Other', date: '2026-11-16', amount: 900, currencyCode: 'CZK', description: 'Train' }],
    });
    expect(res.status).toBe(201);
    const submitted = await api.post(`/api/v1/travel-entries/${res.body.id}/submit`, {});
    expect([submitted.status, submitted.body.status]).toEqual([200, 3]);
    return res.body.id;
  }

  const untilReady = (api: ApiClient, id: string) =>
    eventually(async () => {
      const items = (await api.get('/api/v1/payouts/ready?pageSize=100')).body.items as Array<{ id: string }>;
      return items.some((r) => r.id === id);
    }, 15_000);

  it('a key issued for a colleague with no flags cannot pay after the colleague is granted ManagePayouts', async () => {
    const { api: owner } = await stack.tenant('CZ');
    // The issuer administers the company's keys but may not pay anyone.
    const issuer = await limitedCaller(owner, ['ManageCompanyData']);
    const colleague = await employee(owner, { permissions: [] });
    const issued = await issuer.api.post('/api/v1/api-keys', { name: 'for a colleague', employeeId: colleague.id });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ createdByEmployeeId: issuer.employeeId, permissionCap: ['ManageCompanyData'] });
    const capped = owner.withKey(issued.body.key);

    const granted = await owner.put(`/api/v1/employees/${colleague.id}`, {
      ...writable(colleague),
      permissions: ['ManagePayouts'],
    });
    expect([granted.status, granted.body.permissions]).toEqual([200, ['ManagePayouts']]);
    const entryId = await approvedEntry(owner);
    await untilReady(owner, entryId);

    const create = await capped.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [entryId] });
    expect([create.status, create.body.code]).toEqual([403, 'FORBIDDEN']);
    for (const path of ['/api/v1/payouts/ready', '/api/v1/payouts']) {
      const res = await capped.get(path);
      expect([path, res.status, res.body.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    expect(await untilReady(owner, entryId)).toBe(true);

    // The grant itself is in force: a key from an issuer who holds ManagePayouts pays.
    const fromOwner = await owner.post('/api/v1/api-keys', { name: 'payer', employeeId: colleague.id });
    const payer = owner.withKey(fromOwner.body.key);
    const paid = await payer.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [entryId] });
    expect(paid.status).toBe(201);
    // The capped key keeps only what both the colleague and its issuer hold: here nothing.
    expect((await capped.get('/api/v1/api-keys')).status).toBe(403);
  });

  it('a key of one’s own is capped too: a flag granted later does not reach it', async () => {
    const { api: owner } = await stack.tenant('CZ');
    const me = await limitedCaller(owner, ['ManageCompanyData']);
    const own = await me.api.post('/api/v1/api-keys', { name: 'my integration' });
    expect(own.body).toMatchObject({ employeeId: me.employeeId, permissionCap: ['ManageCompanyData'] });
    const mine = await owner.get(`/api/v1/employees/${me.employeeId}`);
    expect(
      (
        await owner.put(`/api/v1/employees/${me.employeeId}`, {
          ...writable(mine.body),
          permissions: ['ManageCompanyData', 'ManagePayouts'],
        })
      ).status,
    ).toBe(200);
    expect((await owner.withKey(own.body.key).get('/api/v1/payouts/ready')).status).toBe(403);
    // The key the owner issued for them follows the grant (the owner holds ManagePayouts).
    expect((await me.api.get('/api/v1/payouts/ready')).status).toBe(200);
  });

  it("the audit log names the key's issuer when the key acts for another employee, and nobody otherwise", async () => {
    const { api: owner, employeeId: ownerId } = await stack.tenant('CZ');
    const issuer = await limitedCaller(owner, ['ManageCompanyData']);
    const colleague = await employee(owner, { permissions: [] });
    const key = await issuer.api.post('/api/v1/api-keys', { name: 'acts for a colleague', employeeId: colleague.id });
    const actingForColleague = owner.withKey(key.body.key);

    const theirs = await approvedEntry(actingForColleague);
    const log = (await actingForColleague.get(`/api/v1/travel-entries/${theirs}`)).body.auditLog;
    expect(log.map((r: Record<string, unknown>) => [r.action, r.employeeId, r.keyIssuedByEmployeeId])).toEqual([
      ['Submitted', colleague.id, issuer.employeeId],
      ['AutoApproved', colleague.id, issuer.employeeId],
    ]);

    const ownersOwn = await approvedEntry(owner);
    const ownLog = (await owner.get(`/api/v1/travel-entries/${ownersOwn}`)).body.auditLog;
    expect(ownLog.map((r: Record<string, unknown>) => [r.employeeId, r.keyIssuedByEmployeeId])).toEqual([
      [ownerId, null],
      [ownerId, null],
    ]);
  });

  it('keys issued before caps existed are capped by the migration at what both employee and issuer hold', async () => {
    const { api: owner, tenantId, employeeId: ownerId } = await stack.tenant('CZ');
    const issuer = await employee(owner, { permissions: ['ManageCompanyData', 'ReadAllEntries'] });
    // Granted ManagePayouts after its key was issued by someone without it.
    const payee = await employee(owner, { permissions: ['ManagePayouts', 'ReadAllEntries'] });
    const db = stack.employees.deps.mongo.db!.collection('api_keys');
    const legacy = (employeeId: string, createdByEmployeeId: string | null) => {
      // The form keys were always issued in (`tek_` + 32 random bytes, base64url; decision 0004).
      const key = `tek_${randomBytes(32).toString('base64url')}`;
      return {
        key,
        doc: {
          _id: randomUUID(),
          tenantId,
          employeeId,
          name: 'legacy',
          hint: key.slice(0, 10),
          hash: createHash('sha256').update(key).digest('hex'),
          createdByEmployeeId,
          createdAt: new Date(),
          revokedAt: null,
        },
      };
    };
    const forPayee = legacy(payee.id, issuer.id);
    const operators = legacy(ownerId, null);
    await db.insertMany([forPayee.doc, operators.doc] as never[]);

    await employeesRepositories(stack.employees.deps.mongo).migrate();
    const stored = await db.find({ _id: { $in: [forPayee.doc._id, operators.doc._id] } } as never).toArray();
    const capOf = (id: string) => stored.find((d) => d._id === (id as never))?.permissionCap;
    expect(capOf(forPayee.doc._id)).toEqual(['ReadAllEntries']);
    expect(capOf(operators.doc._id)).toBeNull();

    const payeeKey = owner.withKey(forPayee.key);
    expect((await payeeKey.get('/api/v1/payouts/ready')).status).toBe(200); // ReadAllEntries: kept
    expect((await payeeKey.post('/api/v1/payouts', { payoutMethod: 'Cash', entryIds: [randomUUID()] })).status).toBe(
      403,
    );
    expect((await owner.withKey(operators.key).get('/api/v1/payouts')).status).toBe(200);
  });
});
