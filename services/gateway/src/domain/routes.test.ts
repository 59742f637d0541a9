import { openApiDocument, SERVICES } from '@travel/contracts';
import { isApiPath, isOperationalPath, ownerOf } from './routes';

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

describe('what the gateway forwards and what it refuses by name (canonical paths)', () => {
  it.each(['/api/v1/employees', '/api/v1/travel-entries/1/submit', '/api/v1/x'])('%s is an API path', (path) => {
    expect(isApiPath(path)).toBe(true);
  });

  it.each(['/API/V1/employees', '/Api/v1/employees', '/api/V1/employees', '/api/v1', '/api/v2/employees', '/'])(
    '%s is not',
    (path) => {
      expect(isApiPath(path)).toBe(false);
    },
  );

  it.each(['/metrics', '/METRICS', '/readyz', '/Healthz', '/internal', '/internal/api-keys/resolve', '/INTERNAL/x'])(
    '%s is operational in any case',
    (path) => {
      expect(isOperationalPath(path)).toBe(true);
    },
  );

  it.each(['/api/v1/employees/metrics', '/metricsx', '/api-reference/', '/internals'])('%s is not', (path) => {
    expect(isOperationalPath(path)).toBe(false);
  });
});

describe('the registry of services and the contract', () => {
  const doc = openApiDocument();
  // The operations of the contract, and the planned ones (answered 501 by their owner until built).
  const paths = [
    ...Object.keys((doc.paths ?? {}) as Record<string, unknown>),
    ...Object.keys((doc['x-planned-operations'] ?? {}) as Record<string, unknown>),
  ].filter((p) => p.startsWith('/api/v1/'));

  it('every /api/v1 path of openapi.yaml has an owning service', () => {
    expect(paths.filter((p) => ownerOf(p) === undefined)).toEqual([]);
  });

  it('every resource a service claims is a path of openapi.yaml, and no resource has two owners', () => {
    const segments = new Set(paths.map((p) => p.split('/')[3]));
    const claimed = SERVICES.flatMap((s) => [...s.resources]);
    expect(claimed.filter((r) => !segments.has(r))).toEqual([]);
    expect(new Set(claimed).size).toBe(claimed.length);
  });

  it('names and ports are unique, and no ops port is an API port', () => {
    expect(new Set(SERVICES.map((s) => s.name)).size).toBe(SERVICES.length);
    expect(new Set(SERVICES.flatMap((s) => [s.port, s.opsPort])).size).toBe(2 * SERVICES.length);
  });
});
