import type { FieldErrors } from '@travel/platform';
import { DATA_FIELDS, type DataField, type JsonType } from './event-data-fields';

/**
 * A subscription's filter on the payload (docs/decisions/0230): a JSON object whose keys are `data.<field>`
 * paths or `$and`/`$or`, in the operator vocabulary of Convoy's and Outpost's filters. Every key must
 * hold; a path's value is a scalar (equal to it) or an object of operators, all of which must hold.
 */
export type Scalar = string | number | boolean | null;
export type Operators = {
  $eq?: Scalar;
  $neq?: Scalar;
  $in?: Scalar[];
  $nin?: Scalar[];
  $gt?: string | number;
  $gte?: string | number;
  $lt?: string | number;
  $lte?: string | number;
  $exist?: boolean;
};
export type PayloadFilter = { [key: string]: Scalar | Operators | PayloadFilter[] };

/** Limits of a filter, documented in the contract (`WebhookFilter`). */
export const FILTER_LIMITS = {
  /** Path conditions in the whole filter, `$and`/`$or` branches included. */
  conditions: 20,
  /** `$and`/`$or` inside one another. */
  depth: 3,
  /** Values of one `$in`/`$nin`. */
  listValues: 100,
  /** Characters of one string value. */
  stringLength: 256,
} as const;

const COMPARISONS = ['$gt', '$gte', '$lt', '$lte'] as const;
const OPERATORS = new Set(['$eq', '$neq', '$in', '$nin', '$exist', ...COMPARISONS]);
const PATH = /^data\.([A-Za-z][A-Za-z0-9]*)$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const jsonType = (v: unknown): JsonType | undefined =>
  v === null
    ? 'null'
    : typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
      ? (typeof v as JsonType)
      : undefined;
const keyOf = (parent: string, key: string) => `${parent}[${JSON.stringify(key)}]`;

/**
 * The errors of a filter for a subscription to `eventTypes` (the event types are checked on their own),
 * keyed by the part they are about: `filter`, `filter["data.status"]`, `filter["data.status"].$gt`,
 * `filter.$or[1]["data.employeeId"].$in[2]`. A path must name a field the `data` of every one of the
 * event types carries, and each value must be of a type that field can hold. Values never enter a message.
 */
export function checkFilter(filter: unknown, eventTypes: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const types = eventTypes.filter((t) => DATA_FIELDS.has(t));
  let conditions = 0;

  /** The field as every listed event type carries it: the JSON types all of them allow. */
  const fieldFor = (at: string, name: string): DataField | undefined => {
    const fields: DataField[] = [];
    for (const type of types) {
      const field = DATA_FIELDS.get(type)!.get(name);
      if (!field) {
        add(at, `is not a field of ${type}'s data`);
        return undefined;
      }
      fields.push(field);
    }
    const common = (pick: (f: DataField) => ReadonlySet<JsonType> | undefined) => {
      const sets = fields.map(pick);
      if (sets.some((set) => !set)) return undefined;
      return new Set([...sets[0]!].filter((t) => sets.every((set) => set!.has(t))));
    };
    const shared: DataField = { types: common((f) => f.types)!, itemTypes: common((f) => f.itemTypes) };
    if (!shared.itemTypes && fields.some((f) => f.itemTypes)) shared.types = new Set();
    if ((shared.itemTypes ?? shared.types).size === 0) {
      add(at, `is not of one type in the data of ${types.join(', ')}: register a subscription per event type`);
      return undefined;
    }
    return shared;
  };

  const checkValue = (at: string, value: unknown, field: DataField, ordered: boolean) => {
    const type = jsonType(value);
    const holds = field.itemTypes ?? field.types;
    if (type === undefined) return add(at, 'must be a string, number, boolean or null');
    if (typeof value === 'string' && value.length > FILTER_LIMITS.stringLength)
      return add(at, `must NOT have more than ${FILTER_LIMITS.stringLength} characters`);
    if (ordered && type !== 'string' && type !== 'number') return add(at, 'must be a string or a number');
    if (!holds.has(type)) add(at, `must be ${[...holds].join(' or ')}, as the field is`);
  };

  const checkCondition = (at: string, condition: unknown, field: DataField) => {
    conditions++;
    if (!isObject(condition)) return checkValue(at, condition, field, false);
    const names = Object.keys(condition);
    if (names.length === 0) add(at, 'must hold at least one operator');
    for (const op of names) {
      const value = condition[op];
      const opAt = `${at}.${op}`;
      if (!OPERATORS.has(op)) add(at, `"${op}" is not an operator (${[...OPERATORS].join(', ')})`);
      else if (op === '$exist') {
        if (typeof value !== 'boolean') add(opAt, 'must be boolean');
      } else if (op === '$in' || op === '$nin') {
        if (!Array.isArray(value) || value.length === 0) add(opAt, 'must be a non-empty array');
        else if (value.length > FILTER_LIMITS.listValues)
          add(opAt, `must NOT have more than ${FILTER_LIMITS.listValues} items`);
        else value.forEach((v, i) => checkValue(`${opAt}[${i}]`, v, field, false));
      } else if ((COMPARISONS as readonly string[]).includes(op)) {
        if (field.itemTypes) add(opAt, 'cannot compare an array field');
        else checkValue(opAt, value, field, true);
      } else checkValue(opAt, value, field, false);
    }
  };

  const checkGroup = (at: string, group: unknown, depth: number) => {
    if (!isObject(group)) return add(at, 'must be an object');
    const keys = Object.keys(group);
    if (keys.length === 0) add(at, 'must hold at least one condition (leave the filter out to receive every event)');
    for (const key of keys) {
      const value = group[key];
      if (key === '$and' || key === '$or') {
        const branchAt = `${at}.${key}`;
        if (depth >= FILTER_LIMITS.depth) add(branchAt, `must NOT nest $and/$or more than ${FILTER_LIMITS.depth} deep`);
        else if (!Array.isArray(value) || value.length === 0) add(branchAt, 'must be a non-empty array of filters');
        else value.forEach((branch, i) => checkGroup(`${branchAt}[${i}]`, branch, depth + 1));
        continue;
      }
      const path = PATH.exec(key);
      const at2 = keyOf(at, key);
      if (!path) {
        add(at2, 'must be "data.<field>", "$and" or "$or"');
        continue;
      }
      const field = fieldFor(at2, path[1]!);
      if (field) checkCondition(at2, value, field);
    }
  };

  if (!isObject(filter)) return { filter: ['must be an object or null'] };
  checkGroup('filter', filter, 0);
  if (conditions > FILTER_LIMITS.conditions)
    add('filter', `must NOT hold more than ${FILTER_LIMITS.conditions} conditions`);
  return errors;
}

const has = (data: Record<string, unknown>, name: string) => Object.hasOwn(data, name) && data[name] !== undefined;

/** One field's value equals the operand; an array field: one of its items does. */
const equals = (value: unknown, operand: Scalar) =>
  Array.isArray(value) ? value.some((v) => v === operand) : value === operand;

function compare(value: unknown, op: (typeof COMPARISONS)[number], operand: string | number): boolean {
  if (typeof value !== typeof operand) return false;
  const v = value as string | number;
  return op === '$gt' ? v > operand : op === '$gte' ? v >= operand : op === '$lt' ? v < operand : v <= operand;
}

function holds(data: Record<string, unknown>, name: string, condition: Scalar | Operators): boolean {
  const present = has(data, name);
  const value = data[name];
  if (!isObject(condition)) return present && equals(value, condition);
  return Object.entries(condition).every(([op, operand]) => {
    switch (op) {
      case '$exist':
        return present === operand;
      case '$eq':
        return present && equals(value, operand as Scalar);
      case '$neq':
        return !present || !equals(value, operand as Scalar);
      case '$in':
        return present && (operand as Scalar[]).some((o) => equals(value, o));
      case '$nin':
        return !present || !(operand as Scalar[]).some((o) => equals(value, o));
      default:
        return present && compare(value, op as (typeof COMPARISONS)[number], operand as string | number);
    }
  });
}

/**
 * Whether an event's `data` passes a filter that `checkFilter` accepted. A field the event does not
 * carry (absent, unlike null) equals nothing: it passes `$neq`, `$nin` and `$exist: false` only.
 */
export function matchesFilter(filter: PayloadFilter, data: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$and') return (condition as PayloadFilter[]).every((f) => matchesFilter(f, data));
    if (key === '$or') return (condition as PayloadFilter[]).some((f) => matchesFilter(f, data));
    return holds(data, key.slice('data.'.length), condition as Scalar | Operators);
  });
}
