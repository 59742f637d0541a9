// The company profile through the gateway: every key of the company reads its own company, whatever its
// permissions; the market decides the base currency; operator-given details are shown.
import { createTenant } from '@travel/employees/src/app/tenants';
import { employeesRepositories } from '@travel/employees/src/infra/repositories';
import { ApiClient } from '@travel/testkit';
import { limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

describe('company profile', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack('org-company');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    ['HR', 'EUR'],
    ['SI', 'EUR'],
    ['SK', 'EUR'],
    ['CZ', 'CZK'],
    ['PL', 'PLN'],
  ] as const)('%s: the profile with base currency %s', async (market, baseCurrency) => {
    const t = await stack.tenant(market);
    const res = await t.api.get('/api/v1/company');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: t.tenantId,
      name: `Test ${market}`,
      market,
      baseCurrency,
      address: null,
      registrationNumber: null,
      vatNumber: null,
      enabledCountries: expect.arrayContaining(['HR', 'SI', 'SK', 'CZ', 'PL']),
      enabledCurrencies: expect.arrayContaining(['EUR', 'CZK', 'PLN']),
      createdAt: expect.any(String),
    });
  });

  it('shows the address, registration and VAT numbers the operator gave', async () => {
    const created = await createTenant(employeesRepositories(stack.employees.deps.mongo), {
      name: 'Primjer d.o.o.',
      market: 'HR',
      address: ' Ilica 1, 10000 Zagreb ',
      registrationNumber: '080123456',
      vatNumber: 'HR94577403194',
    });
    const res = await new ApiClient(stack.gateway.url, created.apiKey).get('/api/v1/company');
    expect(res.body).toMatchObject({
      id: created.tenantId,
      name: 'Primjer d.o.o.',
      address: 'Ilica 1, 10000 Zagreb',
      registrationNumber: '080123456',
      vatNumber: 'HR94577403194',
    });
  });

  it('is readable with a key holding no permission, and shows only the caller’s own company', async () => {
    const a = await stack.tenant('SK');
    const b = await stack.tenant('CZ');
    const nobody = await limitedCaller(a.api, []);
    expect((await nobody.api.get('/api/v1/company')).body.id).toBe(a.tenantId);
    expect((await b.api.get('/api/v1/company')).body.id).toBe(b.tenantId);
  });

  it('has no write operations (a PUT is 405 METHOD_NOT_ALLOWED, Allow: GET)', async () => {
    const t = await stack.tenant('PL');
    const res = await t.api.put('/api/v1/company', { name: 'Renamed' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
    expect((await t.api.get('/api/v1/company')).body.name).not.toBe('Renamed');
  });
});
