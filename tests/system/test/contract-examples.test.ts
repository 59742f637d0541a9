// Every example in contracts/openapi.yaml (request bodies and responses, inline or from
// components/examples) is valid against the schema beside it, so the reference page never shows a body
// the API would refuse or never send. That every operation has examples is checked by
// `npm run contracts:check` (contracts/scripts/operation-docs.ts).
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import { doc, METHODS, resolve, type Json } from './support/contract-doc';

interface Case {
  where: string;
  schema: Json;
  value: unknown;
}

/** Every (schema, example) pair of the contract's request bodies and responses. */
function examples(): Case[] {
  const cases: Case[] = [];
  const collect = (where: string, content: Record<string, Json> | undefined) => {
    for (const [mediaType, media] of Object.entries(content ?? {})) {
      const schema = (media.schema ?? {}) as Json;
      if (media.example !== undefined) cases.push({ where: `${where} ${mediaType}`, schema, value: media.example });
      for (const [name, example] of Object.entries((media.examples ?? {}) as Record<string, unknown>)) {
        const resolved = resolve(example);
        if (resolved && 'value' in resolved)
          cases.push({ where: `${where} ${mediaType} (${name})`, schema, value: resolved.value });
      }
    }
  };
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>))
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      collect(`${where} request`, resolve(op.requestBody)?.content as Record<string, Json>);
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, unknown>))
        collect(`${where} ${status}`, resolve(response)?.content as Record<string, Json>);
    }
  return cases;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The contract itself, so `#/components/…` references resolve inside it.
ajv.addSchema({ $id: 'https://contract.test/openapi.json', components: doc.components });
const anchored = (schema: Json): Json =>
  JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"https://contract.test/openapi.json#/'));

const cases = examples();

describe('the examples of contracts/openapi.yaml', () => {
  it('there are examples to check (a request and a response example per operation)', () => {
    expect(cases.length).toBeGreaterThan(60);
  });

  it.each(cases.map((c) => [c.where, c] as const))('%s is valid against its schema', (_where, c) => {
    const validate = ajv.compile(anchored(c.schema));
    const valid = validate(c.value);
    expect(valid ? [] : validate.errors).toEqual([]);
  });

  it('an example that breaks its schema is caught', () => {
    const employee = cases.find((c) => /^GET \/api\/v1\/employees\/\{id\} 200/.test(c.where));
    expect(employee).toBeDefined();
    const validate = ajv.compile(anchored(employee!.schema));
    expect(validate({ ...(employee!.value as Json), unexpected: true, id: 42 })).toBe(false);
  });
});
