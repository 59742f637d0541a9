import type { NextFunction, Request, Response } from 'express';

// What the contract (contracts/openapi.yaml) says about paths and methods, read once: which methods a
// path has (the gateway's 405, docs/decisions/0037) and which request-body fields are read-only (the app
// factory drops them before validation, docs/decisions/0035).

type Doc = Record<string, any>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Paths of contexts not built yet, with their methods: `x-planned-operations` at the contract's root. */
const PLANNED = 'x-planned-operations';

interface Template {
  template: string;
  pattern: RegExp;
  /** Literal segments: a more literal template wins (`/payouts/ready` over `/payouts/{id}`). */
  literals: number;
  methods: Set<string>;
  item?: Doc;
}

function compile(template: string): { pattern: RegExp; literals: number } {
  const segments = template.split('/').filter(Boolean);
  const parts = segments.map((s) =>
    /^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}/g, '[^/]+'),
  );
  return { pattern: new RegExp(`^/${parts.join('/')}/?$`), literals: segments.filter((s) => !s.includes('{')).length };
}

export interface PathMatch {
  /** The contract's template, e.g. `/api/v1/employees/{id}`. */
  template: string;
  /** Upper-case methods the path has, exactly as the contract lists them (as an `Allow` header names them). */
  allowed: string[];
}

/** Segments that index a template: its first three when all literal (`/api/v1/<resource>`), else none. */
const PREFIX_SEGMENTS = 3;
const WILD = '*';
const segmentsOf = (path: string): string[] => path.split('/').filter(Boolean);
const isLiteral = (segment: string): boolean => !segment.includes('{');

/**
 * The contract's paths (built and planned) and their methods. Asked on every request (the gateway's 405,
 * the 501 of planned operations), so a path is tested only against the templates that can match it: those
 * with as many segments and the same leading literal segments (`/api/v1/<resource>`), not all of them.
 */
export class ContractRoutes {
  private readonly templates: Template[] = [];
  /** `<segment count> <leading literal segments>` (or `*`) → templates, most literal first. */
  private readonly index = new Map<string, Template[]>();

  constructor(private readonly doc: Doc) {
    const add = (template: string, methods: string[], item?: Doc) => {
      let t = this.templates.find((x) => x.template === template);
      if (!t) {
        t = { template, ...compile(template), methods: new Set(), item };
        this.templates.push(t);
      }
      t.item ??= item;
      for (const m of methods) t.methods.add(m.toLowerCase());
    };
    for (const [template, item] of Object.entries<Doc>(doc.paths ?? {})) {
      add(
        template,
        HTTP_METHODS.filter((m) => item?.[m]),
        item,
      );
    }
    for (const [template, methods] of Object.entries<string[]>(doc[PLANNED] ?? {})) add(template, methods ?? []);
    this.templates.sort((a, b) => b.literals - a.literals);
    // A template's pattern matches only paths with exactly its segments (each non-empty), equal where the
    // template is literal: so a path need only be tested against its own bucket and the wildcard one.
    for (const t of this.templates) {
      const segments = segmentsOf(t.template);
      const lead = segments.slice(0, PREFIX_SEGMENTS);
      const key = `${segments.length} ${lead.every(isLiteral) ? lead.join('/') : WILD}`;
      const bucket = this.index.get(key) ?? [];
      bucket.push(t);
      this.index.set(key, bucket);
    }
  }

  /** The templates a path may match, most literal first (a superset of those it matches). */
  private candidates(path: string): Template[] {
    const segments = segmentsOf(path);
    const exact = this.index.get(`${segments.length} ${segments.slice(0, PREFIX_SEGMENTS).join('/')}`);
    const wild = this.index.get(`${segments.length} ${WILD}`);
    if (!wild) return exact ?? [];
    if (!exact) return wild;
    return [...exact, ...wild].sort((a, b) => b.literals - a.literals);
  }

  private matching(path: string): Template[] {
    const found = this.candidates(path).filter((t) => t.pattern.test(path));
    const best = found[0]?.literals;
    return found.filter((t) => t.literals === best);
  }

  /** The template a path matches and the methods it has, or undefined for a path the contract does not know. */
  match(path: string): PathMatch | undefined {
    const found = this.matching(path);
    if (!found.length) return undefined;
    const methods = new Set(found.flatMap((t) => [...t.methods]));
    return {
      template: found[0]!.template,
      allowed: HTTP_METHODS.filter((m) => methods.has(m)).map((m) => m.toUpperCase()),
    };
  }

  /** Whether the contract documents the operation in `paths` (built), not only in x-planned-operations. */
  documents(method: string, path: string): boolean {
    return this.matching(path).some((t) => Boolean(t.item?.[method.toLowerCase()]));
  }

  /** Whether the operation is only planned (x-planned-operations), not built: 501 NOT_IMPLEMENTED. */
  planned(method: string, path: string): boolean {
    const m = method.toLowerCase();
    const found = this.matching(path);
    return found.some((t) => t.methods.has(m)) && !found.some((t) => Boolean(t.item?.[m]));
  }

  /** The contract's operation object for a method and path (with its template), or undefined. */
  operation(method: string, path: string): { template: string; op: Doc } | undefined {
    for (const t of this.matching(path)) {
      const op = t.item?.[method.toLowerCase()];
      if (op) return { template: t.template, op };
    }
    return undefined;
  }

  /** The JSON request-body schema of an operation, or undefined. */
  requestSchema(method: string, path: string): Doc | undefined {
    for (const t of this.matching(path)) {
      const op = t.item?.[method.toLowerCase()];
      const schema = op?.requestBody?.content?.['application/json']?.schema;
      if (schema) return schema;
    }
    return undefined;
  }

  /** Resolves a local `$ref` (`#/components/schemas/X`). */
  resolve(schema: Doc | undefined): Doc | undefined {
    let s = schema;
    for (let i = 0; s && typeof s.$ref === 'string' && i < 32; i++) {
      s = s.$ref
        .replace(/^#\//, '')
        .split('/')
        .map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((node: Doc | undefined, key: string) => node?.[key], this.doc);
    }
    return s;
  }

  /**
   * Removes, in place, every property of `value` the schema marks `readOnly: true`, whatever its value:
   * read-only fields a client echoes back are accepted and ignored. Follows `$ref`, `allOf`, object
   * `properties` and array `items`; read-only properties inside `oneOf`/`anyOf` branches are left for the
   * validator, which refuses them (loud rather than silently wrong).
   */
  stripReadOnly(schema: Doc | undefined, value: unknown, depth = 0): void {
    const s = this.resolve(schema);
    if (!s || depth > 32 || value === null || typeof value !== 'object') return;
    for (const part of s.allOf ?? []) this.stripReadOnly(part, value, depth + 1);
    if (Array.isArray(value)) {
      if (s.items) for (const item of value) this.stripReadOnly(s.items, item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const [name, propSchema] of Object.entries<Doc>(s.properties ?? {})) {
      if (!Object.hasOwn(record, name)) continue;
      // `readOnly` may sit beside a `$ref` (OpenAPI 3.1) or inside the referenced schema.
      if (propSchema?.readOnly === true || this.resolve(propSchema)?.readOnly === true) delete record[name];
      else this.stripReadOnly(propSchema, record[name], depth + 1);
    }
  }
}

/**
 * Express middleware (after the JSON parser, before the validator): drops the read-only fields of a JSON
 * body, so a body a GET returned is a valid PUT body. Unknown fields are left for the validator (400).
 */
export function ignoreReadOnlyFields(routes: ContractRoutes) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.body && typeof req.body === 'object') {
      const schema = routes.requestSchema(req.method, req.path);
      if (schema) routes.stripReadOnly(schema, req.body);
    }
    next();
  };
}
