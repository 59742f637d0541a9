import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmployeesClient, FleetClient, ReferenceFxClient, NO_POLICY } from '@travel/contracts';
import { generateSigningKey, privateKeyFromText } from '../context-keys';
import { AppError } from '../errors';
import { internalTransports } from './internal-client';

// The providers' published clients (contracts/src/clients) over the platform's transport: the answers
// each maps (404 as "not the company's", a 400 refusal as the same error, anything else 503), as the
// three hand-written clients they replace did (issue 26).
const signingKey = privateKeyFromText(generateSigningKey().privateKey);

/** A provider answering `status` and `body` for each path. */
type Answers = Record<string, [number, unknown?]>;

describe('the published clients over InternalClient', () => {
  let server: Server;
  let baseUrl: string;
  let answers: Answers = {};
  const asked: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume().on('end', () => {
        asked.push(`${req.method} ${req.url}`);
        const [status, body] = answers[`${req.method} ${req.url}`] ?? [500, { code: 'INTERNAL' }];
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(body === undefined ? '' : JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    answers = {};
    asked.length = 0;
  });

  const to = (target: string) => internalTransports('entries', signingKey)(target, baseUrl);
  const ID = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';

  describe('EmployeesClient', () => {
    const employees = () => new EmployeesClient(to('employees'));

    it('reads a per-diem profile; 404 and a value that is no id at all are no employee (not asked)', async () => {
      answers[`GET /internal/tenants/t/employees/${ID}`] = [200, { id: ID, residency: 'NonResident' }];
      await expect(employees().perDiemProfileOf('t', ID)).resolves.toEqual({
        residency: 'NonResident',
        mobileRoadTransportWorker: false,
      });
      await expect(employees().perDiemProfileOf('t', ID.replace('f', 'e'))).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });
      answers[`GET /internal/tenants/t/employees/${ID}`] = [404, { code: 'NOT_FOUND' }];
      await expect(employees().perDiemProfileOf('t', ID)).resolves.toBeNull();
      asked.length = 0;
      await expect(employees().perDiemProfileOf('t', 'x')).resolves.toBeNull();
      expect(asked).toEqual([]);
    });

    it('asks with the ids as one list; an unknown company is 503 for the printed papers', async () => {
      answers['GET /internal/tenants/t/employees/e/chargeable-cost-centers?ids=a%2Cb'] = [
        200,
        { employeeId: 'e', chargeable: ['a'] },
      ];
      await expect(employees().chargeable('t', 'e', ['a', 'b'])).resolves.toEqual(['a']);
      answers['GET /internal/tenants/t/document-parties?ids=e'] = [404, { code: 'NOT_FOUND' }];
      const err = await employees()
        .documentParties('t', ['e'])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('company') });
    });
  });

  describe('ReferenceFxClient', () => {
    const fx = () => new ReferenceFxClient(to('reference-fx'));
    const body = { market: 'CZ' as const, amount: '1', currency: 'USD', date: '2026-11-20' };

    it('rethrows a 400 as the same code and field errors; any other 400 code is VALIDATION_FAILED', async () => {
      const errors = { manualRate: ['no rate'] };
      answers['POST /internal/fx/convert'] = [400, { code: 'EXCHANGE_RATE_UNAVAILABLE', detail: 'none', errors }];
      await expect(fx().convert(body)).rejects.toMatchObject({
        code: 'EXCHANGE_RATE_UNAVAILABLE',
        status: 400,
        message: 'none',
        errors,
      });
      answers['POST /internal/fx/convert'] = [400, { code: 'BAD_THING', errors }];
      await expect(fx().convert(body)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors });
      answers['POST /internal/fx/convert'] = [502, {}];
      await expect(fx().convert(body)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    });

    it('reads no policy (404) as NO_POLICY, and a failing reference-fx as 503, never "no policy"', async () => {
      answers['GET /internal/tenants/t/per-diem-policy'] = [404, { code: 'NOT_FOUND' }];
      await expect(fx().policyOf('t')).resolves.toEqual(NO_POLICY);
      answers['GET /internal/tenants/t/per-diem-policy'] = [500, { code: 'INTERNAL' }];
      await expect(fx().policyOf('t')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    });
  });

  describe('FleetClient', () => {
    const fleet = () => new FleetClient(to('fleet'));
    const use = { entryId: 'e', expenseId: 'x', revision: 1 };

    it('claims: 200 true, 404 false, else 503; abandon never throws', async () => {
      answers['POST /internal/tenants/t/vehicles/v/claims'] = [200, { id: 'v' }];
      await expect(fleet().claim('t', 'v', use)).resolves.toBe(true);
      answers['POST /internal/tenants/t/vehicles/v/claims'] = [404, { code: 'NOT_FOUND' }];
      await expect(fleet().claim('t', 'v', use)).resolves.toBe(false);
      answers['POST /internal/tenants/t/vehicles/v/claims'] = [500, {}];
      await expect(fleet().claim('t', 'v', use)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await expect(fleet().abandon('t', 'v', use)).resolves.toBeUndefined();
    });

    it("reads the vehicle's fuel data and plate, null fields when fleet has none", async () => {
      answers['GET /internal/tenants/t/vehicles/v'] = [200, { id: 'v', fuelType: 'Diesel' }];
      await expect(fleet().fuelData('t', 'v')).resolves.toEqual({ fuelType: 'Diesel', fuelConsumption: null });
      await expect(fleet().plate('t', 'v')).resolves.toBeNull();
      answers['GET /internal/tenants/t/vehicles/v'] = [404, { code: 'NOT_FOUND' }];
      await expect(fleet().fuelData('t', 'v')).resolves.toBeNull();
    });
  });
});
