import { parseAllowListUpdated } from './allow-list-updated';

describe('parseAllowListUpdated', () => {
  it('takes the id, the tenant, the list as stored and when it was written', () => {
    const event = {
      id: '5f0c1e9a-0000-4000-8000-000000000001',
      type: 'allow-list.updated',
      tenantId: 't1',
      occurredAt: '2026-11-26T10:00:00.000Z',
      data: { kind: 'currencies', codes: ['CZK', 'EUR'] },
    };
    expect(parseAllowListUpdated(event)).toEqual({
      id: event.id,
      tenantId: 't1',
      update: { kind: 'currencies', codes: ['CZK', 'EUR'], occurredAt: new Date('2026-11-26T10:00:00.000Z') },
    });
  });

  it('refuses an occurredAt that is no date (parked: it can never succeed)', () => {
    expect(() =>
      parseAllowListUpdated({ id: 'x', tenantId: 't1', occurredAt: 'soon', data: { kind: 'countries', codes: [] } }),
    ).toThrow(/occurredAt/);
  });
});
