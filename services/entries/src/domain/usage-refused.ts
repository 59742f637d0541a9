// fleet.vehicle.usage-refused (contracts/events, fleet's decision 0032): a vehicle.used of ours named a
// vehicle that does not exist (any longer) in the company. Parsed strictly; anything else is poison.

import type { EventBody } from '@travel/contracts';
import { isUuid } from './ids';

export const USAGE_REFUSED = 'vehicle.usage-refused';

/** The event as contracts/events/internal/fleet.vehicle.usage-refused.schema.json describes it. */
export type UsageRefused = EventBody<'fleet.vehicle.usage-refused'>;

export function parseUsageRefused(body: unknown): UsageRefused {
  const e = body as Partial<UsageRefused> | null;
  const d = e?.data as Partial<UsageRefused['data']> | undefined;
  const ok =
    e &&
    typeof e.id === 'string' &&
    e.type === USAGE_REFUSED &&
    typeof e.tenantId === 'string' &&
    e.tenantId.length > 0 &&
    typeof e.occurredAt === 'string' &&
    d &&
    [d.vehicleId, d.entryId, d.expenseId].every(isUuid) &&
    Number.isSafeInteger(d.revision) &&
    (d.revision as number) >= 0 &&
    d.reason === 'VehicleNotFound';
  if (!ok) throw new Error('not a fleet.vehicle.usage-refused event');
  return {
    ...(e as UsageRefused),
    data: {
      vehicleId: d.vehicleId!.toLowerCase(),
      entryId: d.entryId!.toLowerCase(),
      expenseId: d.expenseId!.toLowerCase(),
      revision: d.revision!,
      reason: 'VehicleNotFound',
    },
  };
}
