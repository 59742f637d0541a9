import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { announceUnknownAmountsDue, entryChanged } from './entry-changed';
import type { PayableEntry } from '../domain/payout';
import { TenantScope } from '@travel/platform';

// What entries raises matches contracts/events/internal/entries.entry-state.changed.schema.json (payouts validates
// every message against it and parks what does not match).
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const valid = ajv.compile(
  JSON.parse(
    readFileSync(
      join(
        __dirname,
        '..',
        '..',
        '..',
        '..',
        'contracts',
        'events',
        'internal',
        'entries.entry-state.changed.schema.json',
      ),
      'utf8',
    ),
  ),
);

const entry = (over: Partial<PayableEntry> = {}) =>
  ({
    _id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    tenantId: 'tenant-1',
    employeeId: '0b8e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c',
    entryNumber: '2026-00042',
    status: 3,
    isPaidOut: false,
    deletedAt: null,
    approvedAt: new Date('2026-11-20T09:00:00.000Z'),
    baseCurrency: 'CZK',
    advancePaymentInBaseCurrency: '500.00',
    expenses: [{ amountInBaseCurrency: '120.50' }],
    perDiems: [{ amountInBaseCurrency: '600.00' }],
    ...over,
  }) as unknown as PayableEntry;

describe('entries.entry-state.changed', () => {
  it('carries the state payouts needs and matches its JSON Schema', () => {
    const event = entryChanged(entry(), 7, new Date('2026-11-21T10:00:00.000Z'));
    const message = {
      id: event.id,
      type: event.type,
      tenantId: event.tenantId,
      occurredAt: event.occurredAt,
      data: event.data,
    };
    expect(valid(message)).toBe(true);
    expect(event.routingKey).toBe('entries.entry-state.changed');
    expect(event.data).toEqual({
      entryId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      entryNumber: '2026-00042',
      employeeId: '0b8e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c',
      status: 3,
      isPaidOut: false,
      deleted: false,
      approvedAt: '2026-11-20T09:00:00.000Z',
      baseCurrency: 'CZK',
      amountDue: '220.50',
      rev: 7,
    });
  });

  it('a trip request, a deleted or a not approved entry match too', () => {
    for (const over of [
      { entryNumber: '', status: 1 as const, approvedAt: null },
      { deletedAt: new Date(), status: 0 as const },
      { advancePaymentInBaseCurrency: '1000.00' },
    ]) {
      const e = entryChanged(entry(over), 1);
      expect(valid({ id: e.id, type: e.type, tenantId: e.tenantId, occurredAt: e.occurredAt, data: e.data })).toBe(
        true,
      );
    }
    expect(entryChanged(entry({ status: 1 }), 1).data.approvedAt).toBeNull();
  });

  it('an unknown per-diem amount is sent as an unknown amount due (null), never 0 (docs/decisions/0109)', () => {
    const e = entryChanged(
      entry({ perDiems: [{ amountInBaseCurrency: null }] } as unknown as Partial<PayableEntry>),
      2,
    );
    expect(e.data.amountDue).toBeNull();
    expect(valid({ id: e.id, type: e.type, tenantId: e.tenantId, occurredAt: e.occurredAt, data: e.data })).toBe(true);
  });

  it('the start-up migration announces an entry’s unknown amount due once, in the write that marks it', async () => {
    const doc = {
      ...entry({ perDiems: [{ amountInBaseCurrency: null }] } as unknown as Partial<PayableEntry>),
      rev: 4,
    };
    const writes: { filter: Record<string, unknown>; update: Record<string, any> }[] = [];
    const repos = {
      unknownDueNotAnnounced: async () => [doc],
      entries: {
        // The platform's scope over a stand-in model: the write TenantScope.commit makes is the one recorded.
        of: (tenant: string) =>
          new TenantScope(
            {
              db: {},
              collection: { collectionName: 'entries' },
              updateOne: (filter: Record<string, unknown>, update: Record<string, any>) => ({
                exec: async () => {
                  writes.push({ filter, update });
                  return { matchedCount: 1 };
                },
              }),
            } as never,
            tenant,
          ),
      },
    } as unknown as Parameters<typeof announceUnknownAmountsDue>[0];
    expect(await announceUnknownAmountsDue(repos)).toBe(1);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.filter).toMatchObject({ _id: doc._id, rev: 4 });
    expect(writes[0]!.update.$set).toMatchObject({ rev: 5, unknownDueAnnounced: true });
    expect(JSON.stringify(writes[0]!.update)).toContain('"amountDue":null');
  });
});
