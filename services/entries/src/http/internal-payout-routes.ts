import { PAYOUT_BATCH_STEPS } from '@travel/contracts';
import type { Request, Router } from 'express';
import { apiRouter, AppError, parseTenantId, route } from '@travel/platform';
import type { PayoutMarks } from '../app/payout-marks';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ENTRIES = 1000;

function entryIdsOf(req: Request): string[] {
  const ids = (req.body as { entryIds?: unknown } | undefined)?.entryIds;
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > MAX_ENTRIES ||
    !ids.every((x) => typeof x === 'string' && UUID.test(x))
  )
    throw new AppError('VALIDATION_FAILED', undefined, { entryIds: [`must be 1 to ${MAX_ENTRIES} entry ids (UUIDs)`] });
  return ids as string[];
}

/** The reservations' deadline (`reservedUntil`, ISO 8601; docs/decisions/0110); absent: none. */
function reservedUntilOf(req: Request): Date | null {
  const raw = (req.body as { reservedUntil?: unknown } | undefined)?.reservedUntil;
  if (raw === undefined || raw === null) return null;
  const at = typeof raw === 'string' ? new Date(raw) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime()))
    throw new AppError('VALIDATION_FAILED', undefined, { reservedUntil: ['must be an ISO 8601 date-time'] });
  return at;
}

/**
 * Service-to-service routes of the payouts context (never reachable through the gateway; docs/decisions/0075):
 * `POST /internal/tenants/{tenantId}/payout-batches/{batchId}/reserve|commit|release|undo` with
 * `{ entryIds, reservedUntil? }`, answering `{ results: [{ entryId, ok, reason?, entryNumber, employeeId, amountDue, … }] }`
 * in the order asked. Each step is idempotent for the batch.
 */
export function internalPayoutRoutes(marks: PayoutMarks): Router {
  const r = apiRouter();
  for (const step of PAYOUT_BATCH_STEPS)
    r.post(
      `/tenants/:tenantId/payout-batches/:batchId/${step}`,
      route(async (req, res) => {
        const batchId = String(req.params.batchId).toLowerCase();
        if (!UUID.test(batchId)) throw new AppError('VALIDATION_FAILED', undefined, { batchId: ['must be a UUID'] });
        res.json({
          results: await marks.run(
            step,
            parseTenantId(String(req.params.tenantId)),
            batchId,
            entryIdsOf(req),
            reservedUntilOf(req),
          ),
        });
      }),
    );
  return r;
}
