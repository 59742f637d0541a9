// The entries context's ranges and list sizes (docs/decisions/0107): they hold in the domain and the use
// cases whether or not the contract validator ran. Every figure is the contract's; limits.test.ts reads
// contracts/openapi.yaml and compares, so the two cannot drift apart.
import { EXCHANGE_RATE_RANGE, nonNegativeAmount, positiveAmount, type DecimalRange } from '@travel/money';
import type { FieldErrors } from '@travel/platform';
import { checkItems } from '@travel/platform/src/limits';
import { tooLong } from '@travel/text-rules';

/** An advance, a paid expense, a per-diem override: 0 up to the product's maximum amount. */
export const AMOUNT_RANGE: DecimalRange = nonNegativeAmount();
/** Every manual exchange rate (advance, expense, per-diem row). */
export const MANUAL_RATE_RANGE: DecimalRange = EXCHANGE_RATE_RANGE;
/** An allocation's share in the base currency: above 0. */
export const ALLOCATION_AMOUNT_RANGE: DecimalRange = positiveAmount();
/** An allocation's percentage: above 0, at most 100. */
export const MAX_PERCENTAGE = 100;
export const PERCENTAGE_RANGE: DecimalRange = positiveAmount(MAX_PERCENTAGE);
/** Mileage: kilometres driven on one row. */
export const MAX_DISTANCE_KM = 100_000;
export const DISTANCE_RANGE: DecimalRange = positiveAmount(MAX_DISTANCE_KM);
/** Mileage: litres (kWh) per 100 km. */
export const MAX_FUEL_CONSUMPTION = 100;
export const FUEL_CONSUMPTION_RANGE: DecimalRange = positiveAmount(MAX_FUEL_CONSUMPTION);
/** Mileage: a receipt's price per litre (kWh), in the base currency. */
export const FUEL_PRICE_RANGE: DecimalRange = positiveAmount();

/** Meals of one kind provided on a row or a day; the legacy aggregate counts lunches and dinners. */
export const MAX_MEALS_OF_A_KIND = 2;
export const MAX_LEGACY_MEALS = 4;
/** Days a row's meal allocation may name (a row spans at most two calendar days). */
export const MAX_MEAL_ALLOCATION_DAYS = 2;

/** Text an entry write stores, in characters. */
export const TEXT_MAX_LENGTH = {
  destination: 200,
  purpose: 500,
  description: 4000,
  report: 4000,
  placeId: 300,
  expenseDescription: 1000,
  overrideReason: 500,
  workflowComment: 2000,
} as const;

/** List sizes of an entry write. */
export const MAX_ALLOCATIONS = 50;
export const MAX_EXPENSES_PER_CREATE = 200;
export const MAX_PER_DIEM_ROWS = 400;
/** The per-diem calculator's itinerary. */
export const MIN_ITINERARY_STOPS = 2;
export const MAX_ITINERARY_STOPS = 200;
/** The approval workflow: steps per phase and approvers per step. */
export const MAX_APPROVAL_STEPS = 10;
export const MAX_APPROVERS_PER_STEP = 50;

/** An entry create's nested lists (expenses, per-diem rows) over their sizes, checked before any of them is priced. */
export function entryListErrors(input: { expenses?: unknown; perDiems?: unknown }): FieldErrors {
  const errors: FieldErrors = {};
  checkItems(errors, 'expenses', input.expenses, MAX_EXPENSES_PER_CREATE);
  checkItems(errors, 'perDiems', input.perDiems, MAX_PER_DIEM_ROWS);
  return errors;
}

/** An itinerary (the calculator's and from-itinerary's request) over its sizes, checked before the engine runs. */
export function itineraryListErrors(input: { stops?: unknown; meals?: unknown }): FieldErrors {
  const errors: FieldErrors = {};
  checkItems(errors, 'stops', input.stops ?? [], MAX_ITINERARY_STOPS, MIN_ITINERARY_STOPS);
  checkItems(errors, 'meals', input.meals, MAX_PER_DIEM_ROWS);
  return errors;
}

/** An approval workflow write over its sizes: steps per phase, approvers per step. */
export function workflowListErrors(input: { settlementSteps?: unknown; tripApprovalSteps?: unknown }): FieldErrors {
  const errors: FieldErrors = {};
  for (const phase of ['settlementSteps', 'tripApprovalSteps'] as const) {
    const steps = input[phase];
    checkItems(errors, phase, steps ?? [], MAX_APPROVAL_STEPS);
    if (!Array.isArray(steps) || steps.length > MAX_APPROVAL_STEPS) continue;
    steps.forEach((step: { approverIds?: unknown } | null, i) =>
      checkItems(errors, `${phase}[${i}].approverIds`, step?.approverIds ?? [], MAX_APPROVERS_PER_STEP),
    );
  }
  return errors;
}

/** A workflow operation's comment (kept in the audit log): text of at most 2,000 characters, or none. */
export function commentErrors(comment: unknown): FieldErrors {
  if (comment === undefined || comment === null) return {};
  if (typeof comment !== 'string') return { comment: ['must be string'] };
  const problem = tooLong(comment, TEXT_MAX_LENGTH.workflowComment);
  return problem ? { comment: [problem] } : {};
}
