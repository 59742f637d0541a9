import { randomUUID } from 'node:crypto';
import { context, propagation } from '@opentelemetry/api';
import type { EventData, EventRoutingKey } from '@travel/contracts';

/** The body of every message on `domain.events` (ARCHITECTURE.md, Messaging). */
export interface DomainEvent<T = unknown> {
  id: string;
  type: string;
  tenantId: string;
  occurredAt: string;
  data: T;
}

/** An event waiting in its aggregate's document until the relay has published it. */
export interface OutboxEvent<T = unknown> extends DomainEvent<T> {
  routingKey: string;
  seq: number;
  /** W3C trace context of the request that raised it, so the trace continues through the bus. */
  trace?: Record<string, string>;
}

let seq = 0;

/**
 * The `data` of the event `<service>.<type>` as its schema in contracts/events/internal describes it;
 * `never` for a routing key the contract does not know (add its schema first: docs/events.md).
 */
export type EventDataOf<S extends string, T extends string> = `${S}.${T}` extends EventRoutingKey
  ? EventData<`${S}.${T}`>
  : never;

/**
 * An event of the contract, for the outbox: routed `<service>.<type>`, its data typed by the event's
 * schema (contracts/events/internal/<service>.<type>.schema.json), so a producer cannot raise an event
 * the contract does not describe, nor one whose data does not match it.
 */
export function raiseEvent<S extends string, T extends string>(
  service: S,
  type: T,
  tenantId: string,
  data: EventDataOf<S, T>,
  now = new Date(),
): OutboxEvent<EventDataOf<S, T>> {
  return raiseUncheckedEvent(service, type, tenantId, data, now);
}

/** Any routing key, data unchecked: for the platform's own tests of the outbox and the relay only. */
export function raiseUncheckedEvent<T>(
  service: string,
  type: string,
  tenantId: string,
  data: T,
  now = new Date(),
): OutboxEvent<T> {
  const trace: Record<string, string> = {};
  propagation.inject(context.active(), trace);
  return {
    id: randomUUID(),
    type,
    tenantId,
    occurredAt: now.toISOString(),
    data,
    routingKey: `${service}.${type}`,
    seq: ++seq,
    ...(Object.keys(trace).length ? { trace } : {}),
  };
}

export function toMessage(event: OutboxEvent): DomainEvent {
  const { id, type, tenantId, occurredAt, data } = event;
  return { id, type, tenantId, occurredAt, data };
}
