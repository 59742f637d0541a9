import { EVENT_ROUTES, EVENT_SCHEMA_IDS, EVENT_SCHEMAS, type EventRoutingKey } from '@travel/contracts';

/** The JSON types a field of an event's `data` may hold, as a filter compares them. */
export type JsonType = 'string' | 'number' | 'boolean' | 'null';

/** One field of an event's `data`: its JSON types and, for an array, its items' types. */
export interface DataField {
  types: ReadonlySet<JsonType>;
  itemTypes?: ReadonlySet<JsonType>;
}

type SchemaNode = {
  type?: string | string[];
  $ref?: string;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
};

const byId = new Map(EVENT_SCHEMAS.map((s) => [s.$id as string, s as SchemaNode]));
/** A `$ref` between the event schemas: they name each other by file, their `$id`s end with it. */
const resolve = (ref: string): SchemaNode | undefined =>
  [...byId.entries()].find(([id]) => id.endsWith(ref.replace(/^(\.\.?\/)+/, '/')))?.[1];

function typesOf(node: SchemaNode): Set<JsonType> {
  if (node.$ref) {
    const target = resolve(node.$ref);
    return target ? typesOf(target) : new Set();
  }
  const named = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  // JSON has one number type: an integer field holds numbers.
  return new Set(named.map((t) => (t === 'integer' ? 'number' : t)).filter((t): t is JsonType => t !== 'array'));
}

function fieldOf(node: SchemaNode): DataField {
  const named = Array.isArray(node.type) ? node.type : [node.type];
  return named.includes('array') && node.items
    ? { types: typesOf(node), itemTypes: typesOf(node.items) }
    : { types: typesOf(node) };
}

/**
 * The fields of each public event type's `data`, read from the event schemas (contracts/events): what a
 * subscription's filter may name (docs/decisions/0230).
 */
export const DATA_FIELDS: ReadonlyMap<string, ReadonlyMap<string, DataField>> = new Map(
  (Object.keys(EVENT_ROUTES) as EventRoutingKey[])
    .filter((key) => EVENT_ROUTES[key].webhook)
    .map((key) => {
      const event = byId.get(EVENT_SCHEMA_IDS[key]);
      const data = event?.properties?.data;
      const dto = data?.$ref ? resolve(data.$ref) : data;
      const fields = Object.entries(dto?.properties ?? {}).map(([name, node]) => [name, fieldOf(node)] as const);
      return [EVENT_ROUTES[key].type, new Map(fields)] as const;
    }),
);
