import { openApiDocument } from './openapi-document';

/**
 * The value at a JSON pointer of contracts/openapi.yaml (`/components/schemas/DecimalAmount/maximum`),
 * following `$ref`s on the way; throws when nothing is there. For tests that hold a constant of the code
 * to the figure the contract states (docs/decisions/0107).
 */
export function contractAt(pointer: string): unknown {
  const doc = openApiDocument() as Record<string, unknown>;
  const resolve = (node: unknown): unknown => {
    const ref = (node as { $ref?: unknown } | null)?.$ref;
    return typeof ref === 'string' ? resolve(walk(doc, ref.replace(/^#/, ''), ref)) : node;
  };
  function walk(start: unknown, path: string, whole: string): unknown {
    let node = start;
    for (const raw of path.split('/').slice(1)) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      node = resolve(node);
      if (node === null || typeof node !== 'object' || !(key in node))
        throw new Error(`${whole}: no "${key}" in the contract`);
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  }
  return resolve(walk(doc, pointer, pointer));
}
