// Shared by the *.test.ts files; excluded from the build.
import { randomUUID } from 'node:crypto';
import { sign } from './signature';
import type { WebhookEnvelope } from './types';

export const SECRET = 'whsec_test_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const NOW_S = 1_791_360_000;
export const NOW_MS = NOW_S * 1000;

export function entryEnvelope(eventId: string = randomUUID()): WebhookEnvelope {
  return {
    id: `evt_${eventId.replace(/-/g, '')}`,
    type: 'entry.approved',
    createdAt: '2026-10-07T08:15:00.000Z',
    data: {
      id: 'b6f7c2d0-1b7e-4f1e-9a51-2d1f0c9e8a11',
      entryNumber: 'PN-2026-0042',
      employeeId: '0c7d5f4e-8a2b-4c3d-9e1f-6a5b4c3d2e1f',
      departureDate: '2026-09-28',
      returnDate: '2026-10-01',
      status: 4,
      phase: 0,
      isRequest: false,
      isLocked: true,
      isPaidOut: false,
      paidOutAt: null,
      advancePayment: 150.5,
      currencyCode: 'EUR',
      advancePaymentInBaseCurrency: 150.5,
      createdAt: '2026-09-20T10:00:00.000Z',
      editedAt: '2026-10-07T08:14:59.000Z',
    },
  };
}

/** A delivery as the dispatcher sends it: body bytes plus headers. */
export function delivery(options: { eventId?: string; t?: number; secret?: string | string[]; body?: string } = {}) {
  const eventId = options.eventId ?? randomUUID();
  const body = options.body ?? JSON.stringify(entryEnvelope(eventId));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'User-Agent': 'Svc-Webhook/1.0',
    'Svc-Event': 'entry.approved',
    'Svc-Event-Id': eventId,
    'Svc-Signature': sign(body, options.secret ?? SECRET, options.t ?? NOW_S),
    'Svc-Delivery-Id': 'dlv_0001',
  };
  return { eventId, body, headers };
}
