import { randomUUID } from 'node:crypto';
import { context, propagation } from '@opentelemetry/api';

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

export function raiseEvent<T>(
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
