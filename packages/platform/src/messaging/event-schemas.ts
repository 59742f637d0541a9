import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { EVENT_ROUTES, EVENT_SCHEMAS, EVENT_SCHEMA_IDS, type EventRoutingKey } from '@travel/contracts';

// Validation of the events on `domain.events` against their JSON Schemas (contracts/events, docs/events.md):
// every schema compiled once per process, on first use, and looked up by the message's routing key.

let validators: Map<string, ValidateFunction> | undefined;

function compileAll(): Map<string, ValidateFunction> {
  // The public schemas are cut out of openapi.yaml, which may carry its own annotation keywords.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    keywords: ['example', 'discriminator', 'xml', 'externalDocs'],
  });
  addFormats(ajv);
  for (const schema of EVENT_SCHEMAS) ajv.addSchema(schema);
  const compiled = new Map<string, ValidateFunction>();
  for (const [key, id] of Object.entries(EVENT_SCHEMA_IDS)) compiled.set(key, ajv.getSchema(id)!);
  return compiled;
}

export const isEventRoutingKey = (key: string): key is EventRoutingKey => Object.hasOwn(EVENT_ROUTES, key);

const describe = (e: ErrorObject): string => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`.trim();

/** A message on `domain.events` that its routing key's schema refuses (or a routing key with no schema). */
export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
  constructor(
    readonly routingKey: string,
    readonly problems: string[],
  ) {
    super(`${routingKey}: ${problems.join('; ')}`.slice(0, 500));
  }
}

/** Compiles every event schema (once per process); consumers call it at start, so a bad schema fails the boot. */
export function compileEventSchemas(): void {
  validators ??= compileAll();
}

/** What is wrong with `body` as the event of `routingKey`: an empty list when it is valid. */
export function eventProblems(routingKey: string, body: unknown): string[] {
  validators ??= compileAll();
  const validate = validators.get(routingKey);
  if (!validate) return [`no schema for routing key ${routingKey} in contracts/events/internal`];
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 10).map(describe);
}

/** Throws InvalidEventError unless `body` is a valid event of `routingKey`. */
export function assertValidEvent(routingKey: string, body: unknown): void {
  const problems = eventProblems(routingKey, body);
  if (problems.length) throw new InvalidEventError(routingKey, problems);
}
