import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

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
