import type { components } from '@travel/contracts';
import { deletableUntil, finalSince, totals } from '../domain/batch';
import { directionOf } from '../domain/ready';
import type { BatchDoc, ReadyDoc } from '../infra/repositories';

type Schemas = components['schemas'];

/** The JSON number of a stored decimal text (its digits are exactly the text's). */
const wire = (text: string): number => Number(text);

/** A row of the list: only ready rows are listed, and a ready row's amount is known (domain/ready.ts). */
export function toReadyResponse(r: ReadyDoc): Schemas['ReadyForPayout'] {
  const amountDue = r.amountDue!;
  return {
    id: r._id,
    entryNumber: r.entryNumber,
    employeeId: r.employeeId,
    approvedAt: (r.approvedAt ?? new Date(0)).toISOString(),
    amountDue: wire(amountDue),
    currencyCode: r.baseCurrency as Schemas['ReadyForPayout']['currencyCode'],
    direction: directionOf(amountDue),
  };
}

export function toBatchResponse(b: BatchDoc): Schemas['PayoutBatch'] {
  const t = totals(b.entries, b.currencyCode);
  const until = deletableUntil(b);
  return {
    id: b._id,
    payoutMethod: b.payoutMethod,
    currencyCode: b.currencyCode as Schemas['PayoutBatch']['currencyCode'],
    entryCount: b.entries.length,
    totalToEmployees: wire(t.toEmployees),
    totalFromEmployees: wire(t.fromEmployees),
    entries: b.entries.map((e) => ({
      entryId: e.entryId,
      entryNumber: e.entryNumber,
      employeeId: e.employeeId,
      amountDue: wire(e.amountDue),
      direction: e.direction,
    })),
    createdAt: b.createdAt.toISOString(),
    createdByEmployeeId: b.createdByEmployeeId,
    sentToBank: b.sentToBank
      ? {
          at: b.sentToBank.at.toISOString(),
          employeeId: b.sentToBank.employeeId,
          keyIssuedByEmployeeId: b.sentToBank.keyIssuedByEmployeeId,
        }
      : null,
    // Deprecated (docs/decisions/0191): since when the batch is final, as clients read it before.
    paymentFileDownloadedAt: finalSince(b)?.toISOString() ?? null,
    deletableUntil: until ? until.toISOString() : null,
  };
}
