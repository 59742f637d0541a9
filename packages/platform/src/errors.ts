import type { Logger } from './logger';

// The error body of API-SURFACE.md: RFC 9457 problem+json extended with `code`, `errors` and `traceId`.
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'EXCHANGE_RATE_UNAVAILABLE'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'GONE'
  | 'CONFLICT'
  | 'INVALID_STATE'
  | 'PERIOD_CLOSED'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'NOT_IMPLEMENTED'
  | 'SERVICE_UNAVAILABLE';

const STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  EXCHANGE_RATE_UNAVAILABLE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  GONE: 410,
  CONFLICT: 409,
  INVALID_STATE: 409,
  PERIOD_CLOSED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  SERVICE_UNAVAILABLE: 503,
};

const TITLE: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'The request is not valid.',
  EXCHANGE_RATE_UNAVAILABLE: 'No usable exchange rate.',
  UNAUTHORIZED: 'A valid API key is required.',
  FORBIDDEN: 'The caller lacks a permission this operation needs.',
  NOT_FOUND: 'The resource does not exist.',
  METHOD_NOT_ALLOWED: 'The resource does not support this method.',
  GONE: 'This operation was removed; the detail names its replacement.',
  CONFLICT: 'The request conflicts with the current state.',
  INVALID_STATE: 'The operation is not allowed in the current state.',
  PERIOD_CLOSED: 'The accounting period is closed.',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still running.',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used with another request.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  RATE_LIMITED: 'Too many requests.',
  INTERNAL: 'Internal error.',
  NOT_IMPLEMENTED: 'This operation is not implemented yet.',
  SERVICE_UNAVAILABLE: 'A dependency is unavailable; try again.',
};

export type FieldErrors = Record<string, string[]>;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail?: string;
  errors?: FieldErrors;
  traceId: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly errors?: FieldErrors,
    /** What made the refusal (a lost connection, a time-out): logged with a 5xx, never sent to the caller. */
    options?: { cause?: unknown },
  ) {
    super(message ?? TITLE[code], options);
    this.status = STATUS[code];
  }
}

/**
 * Logs a refusal that is an outage (500, 503; not 501's honest "not built") at warn: its code and its cause's
 * name, code and message (an upstream's connection error, a time-out), so an operator sees why a request was
 * refused without the caller seeing it. Every other refusal is the caller's and logs nothing here.
 */
export function warnOfOutage(logger: Pick<Logger, 'warn'>, err: AppError, at: { requestId?: string; path: string }) {
  if (err.code !== 'INTERNAL' && err.code !== 'SERVICE_UNAVAILABLE') return;
  const cause = err.cause as { name?: string; code?: string; message?: string } | undefined;
  const why =
    cause && typeof cause === 'object' ? { cause: { name: cause.name, code: cause.code, message: cause.message } } : {};
  logger.warn({ ...at, code: err.code, ...why }, err.message);
}

export const statusOf = (code: ErrorCode): number => STATUS[code];

/** Whether a code another service answered is one of the catalog's. */
export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(STATUS, code);

export function problem(code: ErrorCode, traceId: string, detail?: string, errors?: FieldErrors): ProblemBody {
  const body: ProblemBody = {
    type: `https://docs.travel-expense.example/errors/${code.toLowerCase().replace(/_/g, '-')}`,
    title: TITLE[code],
    status: STATUS[code],
    code,
    traceId,
  };
  if (detail && detail !== TITLE[code]) body.detail = detail;
  if (errors && Object.keys(errors).length > 0) body.errors = errors;
  return body;
}

export const notFound = (what = 'resource'): AppError => new AppError('NOT_FOUND', `The ${what} does not exist.`);
/** 405 for a path the contract knows, called with a method it does not have; set `Allow` beside it. */
export const methodNotAllowed = (method: string, path: string, allowed: readonly string[]): AppError =>
  new AppError('METHOD_NOT_ALLOWED', `${path} does not support ${method}; it supports ${allowed.join(', ')}.`);
export const forbidden = (permission: string): AppError =>
  new AppError('FORBIDDEN', `This operation requires the ${permission} permission.`);
export const conflict = (detail: string): AppError => new AppError('CONFLICT', detail);
export const invalidState = (detail: string): AppError => new AppError('INVALID_STATE', detail);
/**
 * 409 PERIOD_CLOSED (docs/decisions/0207): the write touches closed accounting periods; `errors.period`
 * lists them (YYYY-MM), the detail says so in words.
 */
export const periodClosed = (periods: readonly string[], detail: string): AppError =>
  new AppError('PERIOD_CLOSED', detail, { period: [...periods] });

/** 400 VALIDATION_FAILED with one message under one field key. */
export const invalidField = (field: string, message: string): AppError =>
  new AppError('VALIDATION_FAILED', undefined, { [field]: [message] });

/** Adds every source's messages to `target` under their keys (the one way field errors are merged); answers `target`. */
export function addFieldErrors(target: FieldErrors, ...sources: readonly FieldErrors[]): FieldErrors {
  for (const source of sources)
    for (const [field, messages] of Object.entries(source)) (target[field] ??= []).push(...messages);
  return target;
}

/** Throws `code` with every collected field error at once, if there is any. */
export function throwFieldErrors(code: ErrorCode, ...sources: readonly FieldErrors[]): void {
  const errors = addFieldErrors({}, ...sources);
  if (Object.keys(errors).length > 0) throw new AppError(code, undefined, errors);
}

/** Collects field errors and throws them together. */
export class FieldErrorCollector {
  private readonly errors: FieldErrors = {};
  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }
  throwIfAny(code: ErrorCode = 'VALIDATION_FAILED'): void {
    if (Object.keys(this.errors).length > 0) throw new AppError(code, undefined, this.errors);
  }
}
