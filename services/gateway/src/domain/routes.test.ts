import { ownerOf } from './routes';

describe('ownerOf', () => {
  it.each([
    ['/api/v1/employees', 'employees'],
    ['/api/v1/employees/123', 'employees'],
    ['/api/v1/webhooks/1/deliveries', 'webhook-dispatcher'],
    ['/api/v1/travel-entries?isRequest=true', 'entries'],
    ['/api/v1/reference/exchange-rates', 'reference-fx'],
    ['/api/v1/vehicles/1/archive', 'fleet'],
    ['/api/v1/payouts/ready', 'payouts'],
    ['/api/v1/utilities/per-diems/calculate', 'entries'],
    // Removed (410 Gone, answered by entries): decision 0058.
    ['/api/v1/per-diems/calculate-simple', 'entries'],
  ])('%s is owned by %s', (path, owner) => {
    expect(ownerOf(path)).toBe(owner);
  });

  it('knows no owner for unknown resources or other prefixes', () => {
    expect(ownerOf('/api/v1/nope')).toBeUndefined();
    expect(ownerOf('/api/v2/employees')).toBeUndefined();
    expect(ownerOf('/internal/api-keys/resolve')).toBeUndefined();
  });
});
