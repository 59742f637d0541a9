import type { NextFunction, Request, Response } from 'express';

// House rule: a body a GET returned is a valid PUT body. Read-only properties (`readOnly: true` in the
// contract) are accepted and ignored, while unknown properties stay 400. express-openapi-validator
// either rejects read-only properties or (with `removeAdditional`) strips unknown ones too, so the
// read-only top-level properties of each operation's JSON body are removed here, before validation.

type Schema = Record<string, any>;

interface Operation {
  method: string;
  pattern: RegExp;
  readOnly: string[];
}

function resolve(doc: Schema, schema: Schema | undefined, depth = 0): Schema | undefined {
  if (!schema || depth > 10) return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) {
    const target = schema.$ref
      .slice(2)
      .split('/')
      .reduce((node: Schema | undefined, key: string) => node?.[key], doc);
    return resolve(doc, target, depth + 1);
  }
  return schema;
}

/** Top-level property names marked `readOnly` (directly, through a `$ref`, or in an `allOf` part). */
export function readOnlyProperties(doc: Schema, schema: Schema | undefined): string[] {
  const s = resolve(doc, schema);
  if (!s) return [];
  const names = new Set<string>();
  for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    const p = resolve(doc, prop);
    if (p?.readOnly === true || prop.readOnly === true) names.add(name);
  }
  for (const part of (s.allOf ?? []) as Schema[]) for (const name of readOnlyProperties(doc, part)) names.add(name);
  return [...names];
}

function operations(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Schema>)) {
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`);
    for (const method of ['post', 'put', 'patch']) {
      const schema = item[method]?.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      const readOnly = readOnlyProperties(doc, schema);
      if (readOnly.length) out.push({ method: method.toUpperCase(), pattern, readOnly });
    }
  }
  return out;
}

/** Removes the read-only top-level properties of a JSON request body, per the operation's contract. */
export function stripReadOnlyProperties(doc: Schema) {
  const ops = operations(doc);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const body = req.body as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const op = ops.find((o) => o.method === req.method && o.pattern.test(req.path));
      for (const name of op?.readOnly ?? []) delete (body as Record<string, unknown>)[name];
    }
    next();
  };
}
