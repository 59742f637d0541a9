import { AppError, type FieldErrors } from './errors';

// Size limits that hold in the code, not only in the contract (docs/decisions/0107): a request that
// reaches a handler unvalidated still cannot ask for a huge page or write an unbounded list. The figures
// are the contract's (`components.parameters.Page`/`PageSize`); the platform limits test compares them.

export const PAGE_MAX = 1_000_000;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;

/** Why `value` is not a whole number in [min, max], worded like the contract validator, or undefined. */
export function integerProblem(value: unknown, min: number, max: number): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be integer';
  if (value < min) return `must be >= ${min}`;
  if (value > max) return `must be <= ${max}`;
  return undefined;
}

/** Why a list breaks its size limit ("must NOT have more than 50 items"), or undefined. Not an array is refused too. */
export function itemsProblem(value: unknown, max: number, min = 0): string | undefined {
  if (!Array.isArray(value)) return 'must be array';
  if (value.length > max) return `must NOT have more than ${max} items`;
  if (value.length < min) return `must NOT have fewer than ${min} items`;
  return undefined;
}

/** Adds a list's size problem under `field`; an omitted list (undefined or null) passes. */
export function checkItems(errors: FieldErrors, field: string, value: unknown, max: number, min = 0): void {
  if (value === undefined || value === null) return;
  const problem = itemsProblem(value, max, min);
  if (problem) (errors[field] ??= []).push(problem);
}

const refuseInvalid = (errors: FieldErrors): void => {
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
};

/** Throws 400 VALIDATION_FAILED when a list breaks its size limit (for a use case with a single list). */
export function requireItems(field: string, value: unknown, max: number, min = 0): void {
  const errors: FieldErrors = {};
  checkItems(errors, field, value ?? [], max, min);
  refuseInvalid(errors);
}

/** A page request inside the contract's bounds, or 400 VALIDATION_FAILED under `page`/`pageSize`. */
export function checkPageRange(page: unknown, pageSize: unknown): { page: number; pageSize: number } {
  const errors: FieldErrors = {};
  const pageProblem = integerProblem(page, 1, PAGE_MAX);
  if (pageProblem) errors.page = [pageProblem];
  const sizeProblem = integerProblem(pageSize, 1, PAGE_SIZE_MAX);
  if (sizeProblem) errors.pageSize = [sizeProblem];
  refuseInvalid(errors);
  return { page: page as number, pageSize: pageSize as number };
}

/**
 * The longest date-time a query takes, the contract's `QueryTimestamp` (`maxLength`): an RFC 3339 instant
 * with nanoseconds and an offset, `2026-01-31T23:59:59.123456789+01:00`, has 35 characters. A longer one
 * (the format allows any number of fraction digits) is 400 before it reaches a filter, a cursor's query
 * or a remembered URL (docs/decisions/0192).
 */
export const QUERY_TIMESTAMP_MAX_LENGTH = 35;

/**
 * The longest URL (path and query) whose answer a service remembers (0182, 0192): a longer URL is answered
 * by the whole path, never remembered, so one entry of the remembered answers cannot be made huge.
 */
export const REMEMBERED_URL_MAX_LENGTH = 2048;

/**
 * A query parameter's date-time as a Date (undefined when left out), or 400 VALIDATION_FAILED under `field`:
 * longer than QUERY_TIMESTAMP_MAX_LENGTH (worded like the contract validator), or no instant a Date holds.
 */
export function queryInstant(
  field: string,
  value: unknown,
  unreadable = 'must match format "date-time"',
): Date | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (text.length > QUERY_TIMESTAMP_MAX_LENGTH)
    throw new AppError('VALIDATION_FAILED', undefined, {
      [field]: [`must NOT have more than ${QUERY_TIMESTAMP_MAX_LENGTH} characters`],
    });
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new AppError('VALIDATION_FAILED', undefined, { [field]: [unreadable] });
  return at;
}
