import { parseEntryChanged } from './entry-changed';

describe('parseEntryChanged', () => {
  it('keeps the event and lower-cases the entry and employee ids, which are compared in lower case', () => {
    const event = {
      id: 'e1',
      type: 'entry-state.changed',
      tenantId: 't1',
      occurredAt: '2026-01-05T10:00:00.000Z',
      data: {
        entryId: 'AAAAAAAA-0000-4000-8000-000000000001',
        entryNumber: 'PN-2026-1',
        employeeId: 'BBBBBBBB-0000-4000-8000-000000000002',
        status: 3,
        isPaidOut: false,
        deleted: false,
        approvedAt: '2026-01-05T10:00:00.000Z',
        baseCurrency: 'EUR',
        amountDue: '12.50',
        rev: 4,
      },
    };
    expect(parseEntryChanged(event)).toEqual({
      ...event,
      data: {
        ...event.data,
        entryId: 'aaaaaaaa-0000-4000-8000-000000000001',
        employeeId: 'bbbbbbbb-0000-4000-8000-000000000002',
      },
    });
  });
});
