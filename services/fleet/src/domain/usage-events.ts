// The entries context's internal events about vehicle use, as
// contracts/events/internal/entries.vehicle.*.schema.json describe them. Parsed strictly: a message that does
// not match can never succeed and is parked.

import type { EventBody } from '@travel/contracts';

export const USED = 'vehicle.used';
export const RELEASED = 'vehicle.released';

/** The two events, typed by their schemas in contracts/events/internal. */
export type VehicleUsageEvent = EventBody<'entries.vehicle.used'> | EventBody<'entries.vehicle.released'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REASONS = ['ExpenseRemoved', 'EntryDeleted', 'VehicleChanged'];

const fail = (what: string): never => {
  throw new Error(`not a vehicle usage event: ${what}`);
};

export function parseVehicleUsageEvent(body: unknown): VehicleUsageEvent {
  const e = (body ?? {}) as Record<string, unknown>;
  if (typeof e.id !== 'string' || !e.id) fail('id');
  if (e.type !== USED && e.type !== RELEASED) fail('type');
  if (typeof e.tenantId !== 'string' || !e.tenantId) fail('tenantId');
  if (typeof e.occurredAt !== 'string' || Number.isNaN(Date.parse(e.occurredAt))) fail('occurredAt');
  const d = (e.data ?? {}) as Record<string, unknown>;
  for (const k of ['vehicleId', 'entryId', 'expenseId'] as const)
    if (typeof d[k] !== 'string' || !UUID.test(d[k])) fail(`data.${k}`);
  if (typeof d.revision !== 'number' || !Number.isSafeInteger(d.revision) || d.revision < 0) fail('data.revision');
  if (e.type === RELEASED && d.reason !== undefined && !REASONS.includes(String(d.reason))) fail('data.reason');
  return {
    id: e.id as string,
    type: e.type as VehicleUsageEvent['type'],
    tenantId: e.tenantId as string,
    occurredAt: e.occurredAt as string,
    data: {
      vehicleId: (d.vehicleId as string).toLowerCase(),
      entryId: (d.entryId as string).toLowerCase(),
      expenseId: (d.expenseId as string).toLowerCase(),
      revision: d.revision as number,
      ...(d.reason !== undefined
        ? { reason: d.reason as EventBody<'entries.vehicle.released'>['data']['reason'] }
        : {}),
    },
  };
}
