import { readOnlyProperties, stripReadOnlyProperties } from './read-only';

const doc = {
  paths: {
    '/api/v1/things/{id}': {
      put: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingWrite' } } } },
      },
    },
  },
  components: {
    schemas: {
      RoId: { type: 'string', readOnly: true },
      ThingWrite: {
        type: 'object',
        properties: {
          id: { $ref: '#/components/schemas/RoId' },
          name: { type: 'string' },
          createdAt: { type: 'string', readOnly: true },
        },
      },
    },
  },
};

describe('read-only request properties', () => {
  it('finds read-only properties directly and through $ref', () => {
    expect(readOnlyProperties(doc, { $ref: '#/components/schemas/ThingWrite' }).sort()).toEqual(['createdAt', 'id']);
  });

  it('removes them from the body of the matching operation only, keeping unknown ones for the validator', () => {
    const strip = stripReadOnlyProperties(doc);
    const run = (method: string, path: string, body: Record<string, unknown>) => {
      const req = { method, path, body } as never;
      strip(req, {} as never, () => undefined);
      return body;
    };
    expect(run('PUT', '/api/v1/things/1', { id: '1', name: 'a', createdAt: 'x', colour: 'red' })).toEqual({
      name: 'a',
      colour: 'red',
    });
    expect(run('POST', '/api/v1/things/1', { id: '1' })).toEqual({ id: '1' });
    expect(run('PUT', '/api/v1/things/1/more', { id: '1' })).toEqual({ id: '1' });
  });
});
