import { randomUUID } from 'node:crypto';
import type { ConsumeMessage, GetMessage, Options } from 'amqplib';
import { LAST_ERROR_HEADER, RETRY_COUNT_HEADER } from './retry';

/** Why and when a message was parked (headers on the copy in `<queue>.parking`). */
export const PARKED_REASON_HEADER = 'x-parked-reason';
export const PARKED_AT_HEADER = 'x-parked-at';
/** `invalid`: the event does not match the schema of its routing key (contracts/events). */
export type ParkedReason = 'poison' | 'invalid' | 'permanent' | 'retries-exhausted';

// Set by the broker on dead-lettering and redelivery, and by the consumer on the way to a back-off or
// parking queue: none of them belongs on a fresh copy, which gets its own.
const BROKER_HEADER = /^x-(death|first-death-|last-death-|delivery-count)/;
const OWN_HEADERS = new Set([RETRY_COUNT_HEADER, LAST_ERROR_HEADER, PARKED_REASON_HEADER, PARKED_AT_HEADER]);

/** Failed handling attempts recorded on a message so far (0 for a first delivery). */
export function retryCountOf(msg: Pick<ConsumeMessage, 'properties'>): number {
  const n = Number(msg.properties.headers?.[RETRY_COUNT_HEADER] ?? 0);
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** The last failure of a message, for a header: its message, bounded. */
export const failureText = (err: unknown): string => String((err as Error)?.message ?? err ?? 'unknown').slice(0, 500);

/**
 * Publish options for a copy of `msg` (to a back-off, parking or consumer queue): the same body,
 * message id, type, timestamp and application headers (tenant, trace context), persistent, with the
 * broker's and the consumer's bookkeeping headers replaced by `extra`.
 */
export function copyOptions(
  msg: ConsumeMessage | GetMessage,
  extra: Record<string, string | number> = {},
): Options.Publish & { messageId: string } {
  const p = msg.properties;
  const headers: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(p.headers ?? {}))
    if (!BROKER_HEADER.test(key) && !OWN_HEADERS.has(key)) headers[key] = value;
  const options: Options.Publish & { messageId: string } = {
    messageId: p.messageId ? String(p.messageId) : randomUUID(),
    persistent: true,
    headers: { ...headers, ...extra },
  };
  if (p.contentType) options.contentType = p.contentType;
  if (p.contentEncoding) options.contentEncoding = p.contentEncoding;
  if (p.correlationId) options.correlationId = p.correlationId;
  if (p.type) options.type = p.type;
  if (p.appId) options.appId = p.appId;
  if (p.timestamp) options.timestamp = p.timestamp;
  if (p.priority !== undefined) options.priority = p.priority;
  return options;
}
