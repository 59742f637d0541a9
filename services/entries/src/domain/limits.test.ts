import { contractAt } from '@travel/contracts';
import { MAX_AMOUNT, MAX_EXCHANGE_RATE } from '@travel/money';
import { INSTANT_PATTERN } from '@travel/per-diem/src/time';
import { checkAllocationShape } from './allocations';
import { entryFields } from './entry';
import { expenseFields } from './expense';
import { MAX_FILES_PER_UPLOAD } from './attachment';
import {
  entryListErrors,
  itineraryListErrors,
  MAX_ALLOCATIONS,
  MAX_APPROVAL_STEPS,
  MAX_APPROVERS_PER_STEP,
  MAX_DISTANCE_KM,
  MAX_EXPENSES_PER_CREATE,
  MAX_FUEL_CONSUMPTION,
  MAX_ITINERARY_STOPS,
  MAX_LEGACY_MEALS,
  MAX_MEAL_ALLOCATION_DAYS,
  MAX_MEALS_OF_A_KIND,
  MAX_PER_DIEM_ROWS,
  MAX_PERCENTAGE,
  MIN_ITINERARY_STOPS,
  commentErrors,
  TEXT_MAX_LENGTH,
  workflowListErrors,
} from './limits';
import { perDiemRowFields } from './per-diem-row';

// Issue 20 §2: the money rules and size limits hold with the contract validator switched off. Each test
// calls the domain directly with the value the validator would have refused (docs/decisions/0107).

const S = '/components/schemas';
const defaults = { employeeId: 'e1', baseCurrency: 'CZK' };
const trip = { departureDate: '2026-11-02', returnDate: '2026-11-03' };
const ids = (n: number) =>
  Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('the contract states the figures the domain enforces', () => {
  it.each([
    [`${S}/DecimalAmount/minimum`, 0],
    // The itinerary's times: what the per-diem engine's parseInstant reads (docs/decisions/0119).
    [`${S}/PerDiemStop/properties/time/pattern`, INSTANT_PATTERN.source],
    [`${S}/PerDiemRowMeals/properties/departureTime/pattern`, INSTANT_PATTERN.source],
    [`${S}/DecimalAmount/maximum`, MAX_AMOUNT],
    [`${S}/TravelEntryCreate/properties/manualAdvanceExchangeRate/exclusiveMinimum`, 0],
    [`${S}/TravelEntryCreate/properties/manualAdvanceExchangeRate/maximum`, MAX_EXCHANGE_RATE],
    [`${S}/TravelEntryUpdate/properties/manualAdvanceExchangeRate/maximum`, MAX_EXCHANGE_RATE],
    [`${S}/ExpenseWrite/properties/manualExchangeRate/maximum`, MAX_EXCHANGE_RATE],
    [`${S}/ExpenseUpdate/properties/manualExchangeRate/maximum`, MAX_EXCHANGE_RATE],
    [`${S}/PerDiemWrite/properties/manualExchangeRate/maximum`, MAX_EXCHANGE_RATE],
    [`${S}/PerDiemWrite/properties/overrideAmount/minimum`, 0],
    [`${S}/PerDiemWrite/properties/overrideAmount/maximum`, MAX_AMOUNT],
    [`${S}/PerDiemWrite/properties/breakfastsProvided/maximum`, MAX_MEALS_OF_A_KIND],
    [`${S}/PerDiemWrite/properties/mealsProvided/maximum`, MAX_LEGACY_MEALS],
    [`${S}/PerDiemWrite/properties/mealsProvidedAllocation/maxItems`, MAX_MEAL_ALLOCATION_DAYS],
    [`${S}/PerDiemMealsOfDay/properties/lunchesProvided/maximum`, MAX_MEALS_OF_A_KIND],
    [`${S}/ExpenseWrite/properties/distanceKm/maximum`, MAX_DISTANCE_KM],
    [`${S}/ExpenseUpdate/properties/distanceKm/maximum`, MAX_DISTANCE_KM],
    [`${S}/ExpenseWrite/properties/fuelConsumption/maximum`, MAX_FUEL_CONSUMPTION],
    [`${S}/ExpenseUpdate/properties/fuelConsumption/maximum`, MAX_FUEL_CONSUMPTION],
    [`${S}/ExpenseWrite/properties/fuelUnitPriceOverride/maximum`, MAX_AMOUNT],
    [`${S}/ExpenseUpdate/properties/fuelUnitPriceOverride/maximum`, MAX_AMOUNT],
    [`${S}/CostCenterAllocation/properties/percentage/maximum`, MAX_PERCENTAGE],
    [`${S}/CostCenterAllocation/properties/amount/maximum`, MAX_AMOUNT],
    [`${S}/TravelEntryCreate/properties/costCenterAllocations/maxItems`, MAX_ALLOCATIONS],
    [`${S}/TravelEntryUpdate/properties/costCenterAllocations/maxItems`, MAX_ALLOCATIONS],
    [`${S}/TravelEntryCreate/properties/expenses/maxItems`, MAX_EXPENSES_PER_CREATE],
    [`${S}/TravelEntryCreate/properties/perDiems/maxItems`, MAX_PER_DIEM_ROWS],
    [`${S}/TravelEntryUpdate/properties/perDiems/maxItems`, MAX_PER_DIEM_ROWS],
    [`${S}/PerDiemCalculationRequest/properties/stops/minItems`, MIN_ITINERARY_STOPS],
    [`${S}/PerDiemCalculationRequest/properties/stops/maxItems`, MAX_ITINERARY_STOPS],
    [`${S}/PerDiemCalculationRequest/properties/meals/maxItems`, MAX_PER_DIEM_ROWS],
    [`${S}/ApprovalWorkflowWrite/properties/settlementSteps/maxItems`, MAX_APPROVAL_STEPS],
    [`${S}/ApprovalWorkflowWrite/properties/tripApprovalSteps/maxItems`, MAX_APPROVAL_STEPS],
    [`${S}/ApprovalStep/properties/approverIds/maxItems`, MAX_APPROVERS_PER_STEP],
    [
      '/paths/~1api~1v1~1travel-entries~1{id}~1attachments/post/requestBody/content/multipart~1form-data/schema/properties/files/oneOf/1/maxItems',
      MAX_FILES_PER_UPLOAD,
    ],
    [
      '/paths/~1api~1v1~1travel-entries/post/requestBody/content/multipart~1form-data/schema/properties/attachments/oneOf/1/maxItems',
      MAX_FILES_PER_UPLOAD,
    ],
    [`${S}/TravelEntryCreate/properties/destination/maxLength`, TEXT_MAX_LENGTH.destination],
    [`${S}/TravelEntryUpdate/properties/destination/maxLength`, TEXT_MAX_LENGTH.destination],
    [`${S}/TravelEntryCreate/properties/purpose/maxLength`, TEXT_MAX_LENGTH.purpose],
    [`${S}/TravelEntryUpdate/properties/purpose/maxLength`, TEXT_MAX_LENGTH.purpose],
    [`${S}/EntryText/maxLength`, TEXT_MAX_LENGTH.description],
    [`${S}/EntryText/maxLength`, TEXT_MAX_LENGTH.report],
    [`${S}/PlaceId/maxLength`, TEXT_MAX_LENGTH.placeId],
    [`${S}/ExpenseWrite/properties/description/maxLength`, TEXT_MAX_LENGTH.expenseDescription],
    [`${S}/ExpenseUpdate/properties/description/maxLength`, TEXT_MAX_LENGTH.expenseDescription],
    [`${S}/PerDiemWrite/properties/overrideReason/maxLength`, TEXT_MAX_LENGTH.overrideReason],
    [`${S}/WorkflowOperationBody/properties/comment/maxLength`, TEXT_MAX_LENGTH.workflowComment],
  ])('%s is %d', (pointer, value) => {
    expect(contractAt(pointer)).toBe(value);
  });
});

describe('entry fields: the advance and its manual rate', () => {
  it('refuses the issue’s advance of -900000 CZK', () => {
    const { errors } = entryFields({ ...trip, advancePayment: -900000, currencyCode: 'CZK' }, defaults);
    expect(errors.advancePayment).toEqual(['must be >= 0']);
  });

  it('refuses an advance above the maximum amount; takes 0 and the maximum itself', () => {
    expect(entryFields({ ...trip, advancePayment: 1_000_000_000 }, defaults).errors.advancePayment).toEqual([
      'must be <= 999999999',
    ]);
    expect(entryFields({ ...trip, advancePayment: 999_999_999.01 }, defaults).errors.advancePayment).toEqual([
      'must be <= 999999999',
    ]);
    expect(entryFields({ ...trip, advancePayment: 0 }, defaults).errors).toEqual({});
    expect(entryFields({ ...trip, advancePayment: MAX_AMOUNT }, defaults).errors).toEqual({});
  });

  it.each([
    [0, 'must be > 0'],
    [-25.1, 'must be > 0'],
    [1_000_001, 'must be <= 1000000'],
  ])('refuses a manual advance rate of %d', (rate, message) => {
    const { errors } = entryFields(
      { ...trip, advancePayment: 100, currencyCode: 'EUR', manualAdvanceExchangeRate: rate },
      defaults,
    );
    expect(errors.manualAdvanceExchangeRate).toEqual([message]);
  });
});

describe('cost-center allocations', () => {
  const cc = ids(60);
  it.each([
    [
      [
        { costCenterId: cc[0]!, percentage: -50 },
        { costCenterId: cc[1]!, percentage: 150 },
      ],
      'percentage',
    ],
    [[{ costCenterId: cc[0]!, percentage: 0 }], 'percentage'],
    [[{ costCenterId: cc[0]!, amount: -100 }], 'amount'],
    [[{ costCenterId: cc[0]!, amount: 1_000_000_000 }], 'amount'],
  ])('refuses shares outside their range: %j', (input, field) => {
    const { errors } = checkAllocationShape(input, 2);
    expect(errors[`costCenterAllocations[0].${field}`]).toHaveLength(1);
  });

  it('a negative and an over-100 percentage are both named', () => {
    const { errors } = checkAllocationShape(
      [
        { costCenterId: cc[0]!, percentage: -50 },
        { costCenterId: cc[1]!, percentage: 150 },
      ],
      2,
    );
    expect(errors['costCenterAllocations[0].percentage']).toEqual(['must be > 0']);
    expect(errors['costCenterAllocations[1].percentage']).toEqual(['must be <= 100']);
  });

  it('refuses more than 50 allocations through the entry fields', () => {
    const input = cc.slice(0, 51).map((costCenterId) => ({ costCenterId, percentage: 1 }));
    const { errors } = entryFields({ ...trip, costCenterAllocations: input }, defaults);
    expect(errors.costCenterAllocations).toEqual(['must NOT have more than 50 items']);
  });
});

describe('expense fields', () => {
  const ctx = { market: 'CZ' as const, baseCurrency: 'CZK' };
  const paid = { kind: 'Parking' as const, date: '2026-11-02' };
  const mileage = { kind: 'Mileage' as const, date: '2026-11-02', fuelType: 'Diesel' as const };

  it.each([
    [{ ...paid, amount: -12.5 }, 'amount', 'must be >= 0'],
    [{ ...paid, amount: 1_000_000_000 }, 'amount', 'must be <= 999999999'],
    [{ ...paid, amount: 10, currencyCode: 'EUR', manualExchangeRate: -25 }, 'manualExchangeRate', 'must be > 0'],
    [{ ...paid, amount: 10, currencyCode: 'EUR', manualExchangeRate: 2e6 }, 'manualExchangeRate', 'must be <= 1000000'],
    [{ ...mileage, distanceKm: -120, fuelConsumption: 6 }, 'distanceKm', 'must be > 0'],
    [{ ...mileage, distanceKm: 100_001, fuelConsumption: 6 }, 'distanceKm', 'must be <= 100000'],
    [{ ...mileage, distanceKm: 120, fuelConsumption: -6 }, 'fuelConsumption', 'must be > 0'],
    [{ ...mileage, distanceKm: 120, fuelConsumption: 101 }, 'fuelConsumption', 'must be <= 100'],
    [
      { ...mileage, distanceKm: 120, fuelConsumption: 6, fuelUnitPriceOverride: -30 },
      'fuelUnitPriceOverride',
      'must be > 0',
    ],
  ])('refuses %j under %s', (input, field, message) => {
    expect(expenseFields(input, ctx).errors[field]).toEqual([message]);
  });
});

describe('per-diem row settings', () => {
  const row = { countryCode: 'CZ', departureTime: '2026-11-02T06:00:00Z', arrivalTime: '2026-11-02T20:00:00Z' };
  it.each([
    [{ overrideAmount: -500, overrideReason: 'x' }, 'overrideAmount', 'must be >= 0'],
    [{ overrideAmount: 1e10, overrideReason: 'x' }, 'overrideAmount', 'must be <= 999999999'],
    [{ manualExchangeRate: -1 }, 'manualExchangeRate', 'must be > 0'],
    [{ lunchesProvided: -3 }, 'lunchesProvided', 'must be >= 0'],
    [{ dinnersProvided: 3 }, 'dinnersProvided', 'must be <= 2'],
    [{ mealsProvided: -1 }, 'mealsProvided', 'must be >= 0'],
  ])('refuses %j', (settings, field, message) => {
    expect(perDiemRowFields({ ...row, ...settings }, 0, 'CZ').errors[`perDiems[0].${field}`]).toEqual([message]);
  });

  it('refuses a meal allocation of more than two days, and negative meals on a day', () => {
    const day = (date: string, lunchesProvided = 0) => ({ date, lunchesProvided });
    expect(
      perDiemRowFields(
        { ...row, mealsProvidedAllocation: [day('2026-11-02'), day('2026-11-03'), day('2026-11-04')] },
        0,
        'CZ',
      ).errors['perDiems[0].mealsProvidedAllocation'],
    ).toEqual(['must NOT have more than 2 items']);
    expect(
      perDiemRowFields({ ...row, mealsProvidedAllocation: [day('2026-11-02', -2)] }, 0, 'CZ').errors[
        'perDiems[0].mealsProvidedAllocation[0].lunchesProvided'
      ],
    ).toEqual(['must be >= 0']);
  });
});

describe('list sizes', () => {
  it('an entry create: more than 200 expenses or 400 per-diem rows', () => {
    expect(entryListErrors({ expenses: new Array(201).fill({}), perDiems: new Array(401).fill({}) })).toEqual({
      expenses: ['must NOT have more than 200 items'],
      perDiems: ['must NOT have more than 400 items'],
    });
    expect(entryListErrors({ expenses: new Array(200).fill({}) })).toEqual({});
  });

  it('an itinerary: fewer than 2 or more than 200 stops, more than 400 meal rows', () => {
    expect(itineraryListErrors({ stops: [{}] })).toEqual({ stops: ['must NOT have fewer than 2 items'] });
    expect(itineraryListErrors({ stops: new Array(201).fill({}), meals: new Array(401).fill({}) })).toEqual({
      stops: ['must NOT have more than 200 items'],
      meals: ['must NOT have more than 400 items'],
    });
  });

  it('a workflow: more than 10 steps, more than 50 approvers in a step', () => {
    expect(
      workflowListErrors({
        settlementSteps: new Array(11).fill({ approverIds: [] }),
        tripApprovalSteps: [{ approverIds: ids(51) }],
      }),
    ).toEqual({
      settlementSteps: ['must NOT have more than 10 items'],
      'tripApprovalSteps[0].approverIds': ['must NOT have more than 50 items'],
    });
  });
});

describe('stored text keeps the contract’s lengths', () => {
  const row = { countryCode: 'CZ', departureTime: '2026-11-02T06:00:00Z', arrivalTime: '2026-11-02T20:00:00Z' };
  it('entry texts and place ids', () => {
    const { errors } = entryFields(
      {
        ...trip,
        destination: 'x'.repeat(201),
        purpose: 'x'.repeat(501),
        description: 'x'.repeat(4001),
        report: 'x'.repeat(4000),
        destinationPlaceId: 'p'.repeat(301),
      },
      defaults,
    );
    expect(errors).toEqual({
      destination: ['must NOT have more than 200 characters'],
      purpose: ['must NOT have more than 500 characters'],
      description: ['must NOT have more than 4000 characters'],
      destinationPlaceId: ['must NOT have more than 300 characters'],
    });
  });

  it('counts characters, not UTF-16 units (200 emoji fit a destination of 200)', () => {
    expect(entryFields({ ...trip, destination: '🚗'.repeat(200) }, defaults).errors).toEqual({});
  });

  it('an expense description, an override reason and a workflow comment', () => {
    const ctx = { market: 'CZ' as const, baseCurrency: 'CZK' };
    expect(
      expenseFields({ kind: 'Parking', date: '2026-11-02', amount: 1, description: 'd'.repeat(1001) }, ctx).errors,
    ).toEqual({ description: ['must NOT have more than 1000 characters'] });
    expect(perDiemRowFields({ ...row, overrideAmount: 10, overrideReason: 'r'.repeat(501) }, 0, 'CZ').errors).toEqual({
      'perDiems[0].overrideReason': ['must NOT have more than 500 characters'],
    });
    expect(commentErrors('c'.repeat(2001))).toEqual({ comment: ['must NOT have more than 2000 characters'] });
    expect(commentErrors('c'.repeat(2000))).toEqual({});
    expect(commentErrors(42)).toEqual({ comment: ['must be string'] });
  });
});
