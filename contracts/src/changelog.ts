import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

// The API's changelog (contracts/changelog.yaml, docs/decisions/0134) and what follows from it with the
// contract: which operations answer with deprecated fields, and the `Deprecation` / `Link` headers they send.

export const CHANGE_KINDS = ['additive', 'behavioural', 'structural'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangelogEntry {
  id: string;
  /** `yyyy-MM-dd`: the day the change took effect. */
  date: string;
  kind: ChangeKind;
  change: string;
  /** JSON pointers into contracts/openapi.yaml of what this entry marks `deprecated: true`. */
  deprecates?: string[];
}

export interface Changelog {
  entries: ChangelogEntry[];
}

/** Where the page is served (the gateway, beside `/api-reference/`); entries are its `#id` anchors. */
export const CHANGELOG_PAGE = '/api-reference/changelog';
export const CHANGELOG_JSON = '/api-reference/changelog.json';

/** Beside the code in a built service (dist/changelog.yaml), else the contracts package's own copy. */
export function changelogPath(): string {
  const bundled = join(__dirname, 'changelog.yaml');
  return existsSync(bundled) ? bundled : join(__dirname, '..', 'changelog.yaml');
}

/** contracts/changelog.yaml as it is (the JSON the gateway serves equals it). */
export const changelogDocument = (): Changelog => parse(readFileSync(changelogPath(), 'utf8')) as Changelog;

type Node = Record<string, unknown>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object';

/** Every JSON pointer of the document whose node says `deprecated: true` (operations, properties, parameters). */
export function deprecatedPointers(doc: Node): string[] {
  const found: string[] = [];
  const walk = (node: unknown, pointer: string) => {
    if (!isNode(node)) return;
    if (node.deprecated === true) found.push(pointer);
    for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${escapeKey(key)}`);
  };
  walk(doc, '');
  return found;
}

/**
 * The deprecated properties a response body of this schema can carry, as the pointers where they are
 * declared: follows `$ref`, `allOf`/`oneOf`/`anyOf`, `properties`, `items` and `additionalProperties`.
 * `writeOnly` properties are never in a response.
 */
export function deprecatedInResponse(doc: Node, schema: unknown, pointer: string): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const walk = (node: unknown, at: string, depth: number) => {
    if (!isNode(node) || depth > 64) return;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      const target = node.$ref.slice(1);
      if (!seen.has(target)) {
        seen.add(target);
        walk(resolvePointer(doc, target), target, depth + 1);
      }
    }
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const)
      if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((s, i) => walk(s, `${at}/${key}/${i}`, depth + 1));
    if (isNode(node.properties))
      for (const [name, prop] of Object.entries(node.properties)) {
        if (!isNode(prop) || prop.writeOnly === true) continue;
        const propAt = `${at}/properties/${escapeKey(name)}`;
        if (prop.deprecated === true) found.add(propAt);
        walk(prop, propAt, depth + 1);
      }
    if (isNode(node.items)) walk(node.items, `${at}/items`, depth + 1);
    if (isNode(node.additionalProperties)) walk(node.additionalProperties, `${at}/additionalProperties`, depth + 1);
  };
  walk(schema, pointer, 0);
  return [...found];
}

function resolvePointer(doc: Node, pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    if (!isNode(node)) return undefined;
    node = node[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** The headers of a response that carries deprecated fields (RFC 9745). */
export interface DeprecationHeaders {
  /** `@<unix seconds>` of the earliest deprecation among the fields: when the answer first carried one. */
  deprecation: string;
  /** One `<page#id>; rel="deprecation"` per changelog entry that deprecated a field of the answer. */
  link: string;
}

/** `METHOD /template` → status → the headers of that answer; only 2xx answers that carry deprecated fields. */
export type DeprecatedResponses = Map<string, Map<number, DeprecationHeaders>>;

export const operationKey = (method: string, template: string): string => `${method.toUpperCase()} ${template}`;

/**
 * Reads the contract once: each operation's success responses whose JSON body schema reaches a deprecated
 * property, with the `Deprecation` and `Link` headers the changelog's entries give them. A deprecated
 * property no entry names is an error here (the gateway does not start), never a header without a date.
 */
export function deprecatedResponses(doc: Node, changelog: Changelog): DeprecatedResponses {
  const entryOf = new Map<string, ChangelogEntry>();
  for (const entry of changelog.entries) for (const p of entry.deprecates ?? []) entryOf.set(p, entry);
  const result: DeprecatedResponses = new Map();
  for (const [template, item] of Object.entries(isNode(doc.paths) ? doc.paths : {})) {
    if (!isNode(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isNode(op) || !isNode(op.responses)) continue;
      const opAt = `/paths/${escapeKey(template)}/${method}`;
      for (const [status, raw] of Object.entries(op.responses)) {
        if (!/^2\d\d$/.test(status)) continue;
        const response = isNode(raw) && typeof raw.$ref === 'string' ? resolvePointer(doc, raw.$ref.slice(1)) : raw;
        const content = isNode(response) && isNode(response.content) ? response.content : {};
        const pointers = Object.entries(content).flatMap(([type, media]) =>
          isNode(media) && /json/.test(type)
            ? deprecatedInResponse(doc, media.schema, `${opAt}/responses/${status}/content/${escapeKey(type)}/schema`)
            : [],
        );
        if (!pointers.length) continue;
        const entries = [...new Set(pointers)].map((p) => {
          const entry = entryOf.get(p);
          if (!entry) throw new Error(`${p} is deprecated in the contract but no changelog entry deprecates it`);
          return entry;
        });
        const byId = new Map(entries.map((e) => [e.id, e]));
        const earliest = [...byId.values()].map((e) => e.date).sort()[0]!;
        const headers: DeprecationHeaders = {
          deprecation: `@${Date.parse(`${earliest}T00:00:00Z`) / 1000}`,
          link: [...byId.keys()]
            .sort()
            .map((id) => `<${CHANGELOG_PAGE}#${id}>; rel="deprecation"; type="text/html"`)
            .join(', '),
        };
        const key = operationKey(method, template);
        const statuses = result.get(key) ?? new Map<number, DeprecationHeaders>();
        statuses.set(Number(status), headers);
        result.set(key, statuses);
      }
    }
  }
  return result;
}
