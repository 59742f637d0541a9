import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export type { paths, components, operations } from '../generated/openapi';

let cached: Record<string, unknown> | undefined;

/** contracts/openapi.yaml, parsed once. Treat as read-only: validators and the reference page share it. */
export function openApiDocument(): Record<string, unknown> {
  cached ??= parse(readFileSync(openApiPath(), 'utf8')) as Record<string, unknown>;
  return structuredClone(cached);
}

/** Beside the code in a built service (dist/openapi.yaml), else the contracts package's own copy. */
export function openApiPath(): string {
  const bundled = join(__dirname, 'openapi.yaml');
  return existsSync(bundled) ? bundled : join(__dirname, '..', 'openapi.yaml');
}

// The one list of webhook event types and of routing keys, every event schema and the events' types
// (generated from openapi.yaml and contracts/events/internal: docs/events.md).
export * from '../generated/events';
// The registry of services (docs/services.md).
export * from './services';
// The form API keys are issued in (employees) and checked in (the gateway).
export * from './api-key-format';
// The internal payout-batch steps between payouts and entries.
export * from './payout-marks';
// The providers' published clients for service-to-service calls, and their routes' bodies (docs/services.md).
export * from './clients';
// JSON pointers into the contract, for tests holding the code's limits to it.
export * from './pointer';
// The API's changelog (contracts/changelog.yaml) and the deprecation headers it dates.
export * from './changelog';
