import { AppError } from '../errors';
import { PublishError } from './amqp-client';

/**
 * What a consumer does with a handler failure (decision 0041):
 * - `permanent`: it can never succeed (invalid data, a refused write): park at once;
 * - `transient`: a dependency is briefly away (store, network, broker, a time-out): redeliver later;
 * - `unknown`: anything else, redelivered later like a transient one but logged as unclassified, so a
 *   failure nobody foresaw costs some delayed retries (and parks once they are used up), never data.
 */
export type FailureKind = 'transient' | 'permanent' | 'unknown';

/** Thrown by a handler for a message that can never be handled (parks it at once). */
export class PermanentError extends Error {
  override readonly name = 'PermanentError';
}

/** Thrown by a handler for a failure that should pass (redelivered with back-off). */
export class TransientError extends Error {
  override readonly name = 'TransientError';
}

// The driver's own classes for "no usable connection", by name (no dependency on the driver's module).
const MONGO_TRANSIENT_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
  'MongoOperationTimeoutError',
  'MongoWriteConcernError',
]);
// Server codes the driver's retryable-read/write rules name, plus MaxTimeMSExpired and WriteConcernTimeout.
const MONGO_TRANSIENT_CODES = new Set([6, 7, 50, 64, 89, 91, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);
const MONGO_TRANSIENT_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'ResetPool', 'PoolRequstedRetry'];
// Mongoose: a document that does not fit its schema will not fit it next time either.
const MONGOOSE_PERMANENT_NAMES = new Set(['ValidationError', 'CastError', 'StrictModeError', 'ValidatorError']);
// Node sockets, DNS and undici (fetch).
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ESOCKETTIMEDOUT',
]);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  errorLabels?: unknown;
  cause?: unknown;
}

function kindOf(e: ErrorLike): FailureKind {
  if (e instanceof PermanentError) return 'permanent';
  if (e instanceof TransientError || e instanceof PublishError) return 'transient';
  if (e instanceof AppError) return e.status === 429 || e.status >= 500 ? 'transient' : 'permanent';
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (MONGOOSE_PERMANENT_NAMES.has(name)) return 'permanent';
  if (MONGO_TRANSIENT_NAMES.has(name)) return 'transient';
  if (Array.isArray(e.errorLabels) && e.errorLabels.some((l) => MONGO_TRANSIENT_LABELS.includes(String(l))))
    return 'transient';
  if (name.startsWith('Mongo') && typeof e.code === 'number' && MONGO_TRANSIENT_CODES.has(e.code)) return 'transient';
  // Mongoose holds operations while it has no connection, then gives up with this message.
  if (/buffering timed out/i.test(message)) return 'transient';
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || e.code.startsWith('UND_ERR_'))) return 'transient';
  if (name === 'TimeoutError' || name === 'AbortError') return 'transient';
  // amqplib: an operation on a channel or connection that has closed.
  if (name === 'IllegalOperationError' || /^(Channel|Connection) (closed|ended)/i.test(message)) return 'transient';
  return 'unknown';
}

/** Classifies a handler failure; a wrapped cause (`fetch failed` → ECONNREFUSED) counts too. */
export function classifyFailure(err: unknown): FailureKind {
  let current: unknown = err;
  let verdict: FailureKind = 'unknown';
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    verdict = kindOf(current as ErrorLike);
    if (verdict !== 'unknown') return verdict;
    current = (current as ErrorLike).cause;
  }
  return verdict;
}
