import amqp, { type ConfirmChannel, type GetMessage } from 'amqplib';
import { PARKED_AT_HEADER, PARKED_REASON_HEADER, copyOptions } from './republish';
import { LAST_ERROR_HEADER, RETRY_COUNT_HEADER } from './retry';
import { parkingQueueOf } from './topology';

/** The consumer queue a name refers to: `q` and `q.parking` both mean consumer queue `q`. */
export const consumerQueueOf = (name: string): string => name.replace(/\.parking$/, '');

export interface ParkedSummary {
  messageId: string | null;
  type: string | null;
  /** `poison`, `permanent`, `retries-exhausted`; `rejected`/`delivery_limit` when the broker parked it. */
  reason: string | null;
  parkedAt: string | null;
  failures: number | null;
  lastError: string | null;
  bytes: number;
}

function putBack(ch: ConfirmChannel, msg: GetMessage): void {
  try {
    ch.nack(msg, false, true);
  } catch {
    // Channel closed: the broker puts unacknowledged messages back by itself.
  }
}

function summarize(msg: GetMessage): ParkedSummary {
  const h = (msg.properties.headers ?? {}) as Record<string, unknown>;
  const deaths = h['x-death'] as Array<{ reason?: string; time?: { value?: number } | Date }> | undefined;
  const str = (v: unknown) => (v === undefined || v === null ? null : String(v));
  return {
    messageId: str(msg.properties.messageId),
    type: str(msg.properties.type),
    reason: str(h[PARKED_REASON_HEADER] ?? deaths?.[0]?.reason),
    parkedAt: str(h[PARKED_AT_HEADER]),
    failures: h[RETRY_COUNT_HEADER] === undefined ? null : Number(h[RETRY_COUNT_HEADER]),
    lastError: str(h[LAST_ERROR_HEADER]),
    bytes: msg.content.length,
  };
}

/** How many messages wait in the parking queue of `queue`, and a look at the first `limit` (put back). */
export async function inspectParked(
  ch: ConfirmChannel,
  queue: string,
  limit = 10,
): Promise<{ queue: string; parking: string; parked: number; sample: ParkedSummary[] }> {
  const consumer = consumerQueueOf(queue);
  const parking = parkingQueueOf(consumer);
  await ch.checkQueue(consumer); // fails (404) for a consumer queue that does not exist
  const { messageCount } = await ch.checkQueue(parking);
  const taken: GetMessage[] = [];
  try {
    for (let i = 0; i < Math.min(limit, messageCount); i++) {
      const msg = await ch.get(parking, { noAck: false });
      if (!msg) break;
      taken.push(msg);
    }
    return { queue: consumer, parking, parked: messageCount, sample: taken.map(summarize) };
  } finally {
    for (const msg of taken) putBack(ch, msg);
  }
}

/**
 * Moves what the parking queue of `queue` holds now (at most `limit`) back to the consumer queue
 * through the default exchange, so no other consumer sees it again. Each copy keeps its body, message
 * id and application headers, loses the parking and retry headers (a fresh back-off budget), and is
 * confirmed by the broker before its parked original is removed. Messages parked while this runs stay
 * parked: a cause that is not fixed cannot make it loop.
 */
export async function redriveParked(
  ch: ConfirmChannel,
  queue: string,
  options: { limit?: number; batch?: number } = {},
): Promise<{ queue: string; parking: string; moved: number; left: number }> {
  const consumer = consumerQueueOf(queue);
  const parking = parkingQueueOf(consumer);
  await ch.checkQueue(consumer); // fails (404) for a consumer queue that does not exist
  const { messageCount } = await ch.checkQueue(parking);
  const todo = Math.min(messageCount, options.limit ?? Number.MAX_SAFE_INTEGER);
  const batchSize = options.batch ?? 100;
  let returned = false;
  const onReturn = () => (returned = true);
  ch.on('return', onReturn);
  let moved = 0;
  try {
    while (moved < todo) {
      const batch: GetMessage[] = [];
      try {
        while (batch.length < Math.min(batchSize, todo - moved)) {
          const msg = await ch.get(parking, { noAck: false });
          if (!msg) break;
          batch.push(msg);
          ch.publish('', consumer, msg.content, { ...copyOptions(msg), mandatory: true });
        }
        if (batch.length === 0) break;
        await ch.waitForConfirms();
        if (returned) throw new Error(`${consumer} did not take the messages (deleted meanwhile?)`);
      } catch (err) {
        for (const msg of batch) putBack(ch, msg);
        throw err;
      }
      for (const msg of batch) ch.ack(msg);
      moved += batch.length;
    }
  } finally {
    ch.off('return', onReturn);
  }
  const left = (await ch.checkQueue(parking)).messageCount;
  return { queue: consumer, parking, moved, left };
}

/**
 * Runs `work` on a confirm channel of its own connection to `amqpUrl` (the operator command's way in),
 * then closes it. A missing queue closes the channel with 404: that arrives as the rejected call.
 */
export async function withOperatorChannel<R>(amqpUrl: string, work: (ch: ConfirmChannel) => Promise<R>): Promise<R> {
  const conn = await amqp.connect(amqpUrl, { clientProperties: { connection_name: 'operator' } });
  conn.on('error', () => undefined);
  try {
    const ch = await conn.createConfirmChannel();
    ch.on('error', () => undefined);
    return await work(ch);
  } finally {
    await conn.close().catch(() => undefined);
  }
}
