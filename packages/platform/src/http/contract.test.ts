import { openApiDocument } from '@travel/contracts';
import { ContractRoutes } from './contract';

const doc = {
  paths: {
    '/api/v1/things': { get: {}, post: { requestBody: { content: { 'application/json': { schema: ref('Thing') } } } } },
    '/api/v1/things/{id}': {
      parameters: [],
      get: {},
      put: { requestBody: { content: { 'application/json': { schema: ref('Thing') } } } },
    },
    '/api/v1/things/special': { delete: {} },
  },
  'x-planned-operations': {
    '/api/v1/later/{id}': ['get', 'put'],
    '/api/v1/later/ready': ['get'],
  },
  components: {
    schemas: {
      Id: { type: 'string', readOnly: true },
      Thing: {
        type: 'object',
        additionalProperties: false,
        properties: {
          id: { $ref: '#/components/schemas/Id' },
          createdAt: { type: 'string', readOnly: true },
          owner: { $ref: '#/components/schemas/Id', readOnly: true },
          name: { type: 'string' },
          parts: { type: 'array', items: ref('Part') },
          meta: { allOf: [ref('Part')] },
        },
      },
      Part: {
        type: 'object',
        properties: { partId: { type: 'string', readOnly: true }, label: { type: 'string' } },
      },
    },
  },
};

function ref(name: string) {
  return { $ref: `#/components/schemas/${name}` };
}

describe('ContractRoutes.match', () => {
  const routes = new ContractRoutes(doc);

  it('lists the methods of a path, upper case, as the contract has them', () => {
    expect(routes.match('/api/v1/things')).toEqual({ template: '/api/v1/things', allowed: ['GET', 'POST'] });
    expect(routes.match('/api/v1/things/123')?.allowed).toEqual(['GET', 'PUT']);
    expect(routes.match('/api/v1/things/123/')?.template).toBe('/api/v1/things/{id}');
  });

  it('prefers the more literal template', () => {
    expect(routes.match('/api/v1/things/special')).toEqual({ template: '/api/v1/things/special', allowed: ['DELETE'] });
    expect(routes.match('/api/v1/later/ready')?.allowed).toEqual(['GET']);
  });

  it('knows the planned paths of contexts not built yet', () => {
    expect(routes.match('/api/v1/later/42')).toEqual({
      template: '/api/v1/later/{id}',
      allowed: ['GET', 'PUT'],
    });
  });

  it('tells a documented (built) operation from a planned one (0058)', () => {
    expect(routes.documents('GET', '/api/v1/things/7')).toBe(true);
    expect(routes.documents('delete', '/api/v1/things/special')).toBe(true);
    expect(routes.documents('DELETE', '/api/v1/things/7')).toBe(false);
    expect(routes.documents('GET', '/api/v1/later/42')).toBe(false);
    expect(routes.documents('GET', '/api/v1/nope')).toBe(false);
  });

  it('tells a planned-only operation (501) from a built or unknown one', () => {
    expect(routes.planned('PUT', '/api/v1/later/42')).toBe(true);
    expect(routes.planned('get', '/api/v1/later/ready')).toBe(true);
    expect(routes.planned('DELETE', '/api/v1/later/42')).toBe(false);
    expect(routes.planned('GET', '/api/v1/things/7')).toBe(false);
    expect(routes.planned('GET', '/api/v1/nope')).toBe(false);
  });

  it('knows nothing of other paths', () => {
    expect(routes.match('/api/v1/things/1/2')).toBeUndefined();
    expect(routes.match('/api/v1/nope')).toBeUndefined();
    expect(routes.match('/api/v2/things')).toBeUndefined();
  });

  it('reads the real contract: built and planned paths', () => {
    const real = new ContractRoutes(openApiDocument());
    expect(real.match('/api/v1/employees/0b3e0f0e-0000-4000-8000-000000000000')?.allowed).toEqual(['GET', 'PUT']);
    expect(real.match('/api/v1/company')?.allowed).toEqual(['GET']);
    expect(real.match('/api/v1/travel-entries/x/submit')?.allowed).toEqual(['POST']);
    expect(real.match('/api/v1/payouts/ready')?.allowed).toEqual(['GET']);
  });
});

describe('ContractRoutes: the index gives what a scan of every template gives', () => {
  // A path is tested only against the templates of its bucket (segment count, `/api/v1/<resource>`); the
  // answer must be the one a test of every template would give, for every path of the real contract.
  const real = new ContractRoutes(openApiDocument());
  const d = openApiDocument() as Record<string, any>;
  const templates = [...Object.keys(d.paths ?? {}), ...Object.keys(d['x-planned-operations'] ?? {})];
  const scan = (path: string) => {
    // The unindexed answer: every template tested on its own, the most literal matching group kept.
    const found = templates
      .map((t) => ({ t, routes: new ContractRoutes({ paths: { [t]: d.paths?.[t] ?? { get: {} } } }) }))
      .filter(({ routes }) => routes.match(path) !== undefined)
      .map(({ t }) => ({ t, literals: t.split('/').filter((s) => s && !s.includes('{')).length }));
    const best = Math.max(...found.map((f) => f.literals));
    return found.filter((f) => f.literals === best).map((f) => f.t);
  };
  const concrete = (t: string) => t.replace(/\{[^}]+\}/g, 'x1');
  const paths = templates.flatMap((t) => [
    concrete(t),
    `${concrete(t)}/`,
    `${concrete(t)}/extra`,
    concrete(t).replace(/\/[^/]+$/, ''),
  ]);

  it(`for ${paths.length} paths: each template with ids, with a trailing slash, one segment more and less`, () => {
    const wrong = paths.filter((path) => {
      const expected = scan(path);
      const got = real.match(path)?.template;
      return expected.length ? !got || !expected.includes(got) : got !== undefined;
    });
    expect(wrong).toEqual([]);
  });
});

describe('ContractRoutes.stripReadOnly', () => {
  const routes = new ContractRoutes(doc);
  const schema = routes.requestSchema('PUT', '/api/v1/things/1');

  it('finds the request-body schema of an operation', () => {
    expect(schema).toEqual(ref('Thing'));
    expect(routes.requestSchema('post', '/api/v1/things')).toEqual(ref('Thing'));
    expect(routes.requestSchema('GET', '/api/v1/things/1')).toBeUndefined();
  });

  it('drops read-only properties (beside or behind a $ref, nested in items and allOf), keeps the rest', () => {
    const body = {
      id: 'x',
      createdAt: 12, // any value: it is ignored, not validated
      owner: 'y',
      name: 'kept',
      unknown: 'left for the validator',
      parts: [{ partId: 'p', label: 'a' }, 'not an object'],
      meta: { partId: 'q', label: 'b' },
    };
    routes.stripReadOnly(schema, body);
    expect(body).toEqual({
      name: 'kept',
      unknown: 'left for the validator',
      parts: [{ label: 'a' }, 'not an object'],
      meta: { label: 'b' },
    });
  });

  it('leaves non-objects alone', () => {
    expect(() => routes.stripReadOnly(schema, null)).not.toThrow();
    expect(() => routes.stripReadOnly(schema, 'text')).not.toThrow();
  });

  it('drops what the real contract marks read-only in an employee PUT', () => {
    const real = new ContractRoutes(openApiDocument());
    const body = {
      id: 'a',
      isAccountOwner: true,
      createdAt: 'c',
      editedAt: 'e',
      firstName: 'Ana',
      lastName: 'B',
      extra: 1,
    };
    real.stripReadOnly(real.requestSchema('PUT', '/api/v1/employees/a'), body);
    expect(body).toEqual({ firstName: 'Ana', lastName: 'B', extra: 1 });
  });
});
