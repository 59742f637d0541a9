import { refusal, untouched, testCaller } from '@travel/testkit/src/doubles';
import { entryFields, type TravelEntry } from '../domain/entry';
import { Decimal } from '@travel/money';
import { EntriesApp } from './entries';
import type { CurrencyConverter } from './ports';
import { PerDiemCalculator } from './per-diem-calculator';
import { PerDiemsApp } from './per-diems';
import type { PerDiemPricer } from './per-diem-pricer';
import { WorkflowApp } from './workflow';

// Issue 20 §2 at the use cases: a body that skipped the contract validator (the issue's `/API/V1/…` path)
// is refused by the use case itself with the documented 400 body, and nothing is read or stored first.

const caller = testCaller();
const trip = { departureDate: '2026-11-02', returnDate: '2026-11-03' };

const stored: TravelEntry = {
  _id: 'x1',
  tenantId: 't1',
  ...entryFields({ ...trip, advancePayment: 100 }, { employeeId: 'e1', baseCurrency: 'CZK' }).fields,
  entryNumber: '2026-00001',
  isRequest: false,
  status: 0,
  phase: null,
  isPaidOut: false,
  paidOutAt: null,
  baseCurrency: 'CZK',
  advancePaymentInBaseCurrency: '100.00',
  advancePaymentExchangeRateSource: null,
  expenses: [],
  perDiems: [],
  attachments: [],
  createdAt: new Date('2026-11-01T00:00:00Z'),
  editedAt: new Date('2026-11-01T00:00:00Z'),
  deletedAt: null,
} as TravelEntry;

/** reference-fx as a manual rate makes it: amount × rate, in CZK. */
const manualFx: CurrencyConverter = {
  convert: async ({ amount, manualRate }) => ({
    baseAmount: new Decimal(amount).times(manualRate ?? '25').toFixed(2),
    source: 'MANUAL',
  }),
};

/** Entries whose store holds `stored` for reads and refuses every write. */
const entriesApp = (fx: CurrencyConverter = untouched('fx')) =>
  new EntriesApp(
    {
      entries: { of: () => ({ get: async () => stored }) },
      nextEntrySequence: () => Promise.reject(new Error('numbered before the refusal')),
    } as unknown as ConstructorParameters<typeof EntriesApp>[0],
    {
      exists: async () => true,
      chargeable: async (_t, _e, ids) => [...ids],
      accountOwners: () => Promise.reject(new Error('asked for owners before the refusal')),
      delegatorsOf: () => Promise.reject(new Error('asked for delegators before the refusal')),
    },
    fx,
    untouched('vehicles'),
    untouched('attachments'),
  );

describe('EntriesApp refuses out-of-range money without the validator', () => {
  it('create: the issue’s advancePayment -900000 CZK is 400 VALIDATION_FAILED under errors.advancePayment', async () => {
    const err = await refusal(() =>
      entriesApp().create(caller, { ...trip, advancePayment: -900000, currencyCode: 'CZK' }),
    );
    expect(err.status).toBe(400);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ advancePayment: ['must be >= 0'] });
  });

  it('create: an advance above the maximum and a nested negative expense, named together', async () => {
    const err = await refusal(() =>
      entriesApp().create(caller, {
        ...trip,
        advancePayment: 5_000_000_000,
        expenses: [{ kind: 'Parking', date: '2026-11-02', amount: -300 }],
      }),
    );
    expect(err.errors).toMatchObject({
      advancePayment: ['must be <= 999999999'],
      'expenses[0].amount': ['must be >= 0'],
    });
  });

  it('create: an advance whose base amount would exceed the maximum (large amount, large manual rate)', async () => {
    const err = await refusal(() =>
      entriesApp(manualFx).create(caller, {
        ...trip,
        advancePayment: 999_999_999,
        currencyCode: 'EUR',
        manualAdvanceExchangeRate: 1_000_000,
      }),
    );
    expect(err.errors).toEqual({ advancePayment: ['must be <= 999999999 once converted into CZK'] });
  });

  it('create: more than 200 nested expenses is refused before any of them is priced', async () => {
    const expenses = Array.from({ length: 201 }, () => ({ kind: 'Parking' as const, date: '2026-11-02', amount: 1 }));
    const err = await refusal(() => entriesApp().create(caller, { ...trip, expenses }));
    expect(err.errors).toEqual({ expenses: ['must NOT have more than 200 items'] });
  });

  it('update: a negative advance and a manual rate of 0 are refused', async () => {
    const err = await refusal(() =>
      entriesApp().update(caller, 'x1', {
        ...trip,
        advancePayment: -1,
        currencyCode: 'EUR',
        manualAdvanceExchangeRate: 0,
      }),
    );
    expect(err.errors).toEqual({
      advancePayment: ['must be >= 0'],
      manualAdvanceExchangeRate: ['must be > 0'],
    });
  });

  it('update: more than 400 per-diem rows and more than 50 allocations', async () => {
    const rows = new Array(401).fill({
      countryCode: 'CZ',
      departureTime: '2026-11-02T06:00:00Z',
      arrivalTime: '2026-11-02T20:00:00Z',
    });
    expect((await refusal(() => entriesApp().update(caller, 'x1', { ...trip, perDiems: rows }))).errors).toEqual({
      perDiems: ['must NOT have more than 400 items'],
    });
    const allocations = Array.from({ length: 51 }, (_, i) => ({ costCenterId: `cc${i}`, percentage: 1 }));
    const err = await refusal(() => entriesApp().update(caller, 'x1', { ...trip, costCenterAllocations: allocations }));
    expect(err.errors).toEqual({ costCenterAllocations: ['must NOT have more than 50 items'] });
  });
});

describe('WorkflowApp refuses oversized workflows before asking the directory', () => {
  const app = () =>
    new WorkflowApp(untouched('repos'), untouched('access'), untouched('employees'), untouched('numbers'));

  it('51 approvers in a step', async () => {
    const approverIds = Array.from({ length: 51 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const err = await refusal(() =>
      app().replaceWorkflow(caller, { settlementSteps: [{ approverIds }], tripApprovalSteps: [] }),
    );
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ 'settlementSteps[0].approverIds': ['must NOT have more than 50 items'] });
  });

  it('a workflow operation with a comment over 2,000 characters, before the entry is read', async () => {
    const err = await refusal(() => app().operate(caller, 'x1', 'approve', 'c'.repeat(2001)));
    expect(err.errors).toEqual({ comment: ['must NOT have more than 2000 characters'] });
  });

  it('11 steps', async () => {
    const steps = new Array(11).fill({ approverIds: ['e2'] });
    const err = await refusal(() => app().replaceWorkflow(caller, { settlementSteps: [], tripApprovalSteps: steps }));
    expect(err.errors).toEqual({ tripApprovalSteps: ['must NOT have more than 10 items'] });
  });
});

describe('the per-diem itinerary is bounded before the engine runs', () => {
  const stops = Array.from({ length: 201 }, (_, i) => ({
    time: new Date(Date.UTC(2026, 10, 2, 0, i)).toISOString(),
    countryCode: 'CZ',
  }));

  it('the calculator: 201 stops', async () => {
    const err = await refusal(() =>
      new PerDiemCalculator(untouched('employees'), untouched('fx'), untouched('policies')).calculate(caller, {
        stops,
      }),
    );
    expect(err.errors).toEqual({ stops: ['must NOT have more than 200 items'] });
  });

  it('from-itinerary: 201 stops', async () => {
    const app = new PerDiemsApp(untouched('repos'), untouched('access'), untouched<PerDiemPricer>('pricer'));
    const err = await refusal(() => app.fromItinerary(caller, 'x1', { stops }));
    expect(err.errors).toEqual({ stops: ['must NOT have more than 200 items'] });
  });
});
