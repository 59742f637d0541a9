// Every operation of contracts/openapi.yaml carries a human `summary` and examples: one for its request
// body (when it has one) and one for its success response (when that has a body; an operation whose
// success has no body, such as a 204, needs an example on one of its other responses; a file download's
// bytes need none). Part of
// `npm run contracts:check`, so a new operation can't be added without them. That the examples validate
// against their schemas is tested by tests/system/test/contract-examples.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

type Json = Record<string, unknown>;

interface MediaType {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, unknown>;
}

const hasExample = (media: MediaType | undefined) =>
  !!media && (media.example !== undefined || Object.keys(media.examples ?? {}).length > 0);

/** A `$ref` inside the document (`#/components/...`) resolved, anything else as it is. */
function resolve(doc: Json, node: unknown): Json | undefined {
  let current = node as Json | undefined;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
    const path = (current.$ref as string).replace(/^#\//, '').split('/');
    current = path.reduce<unknown>(
      (n, key) => (n as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      doc,
    ) as Json | undefined;
  }
  return current;
}

const mediaOf = (doc: Json, node: unknown) =>
  Object.values((resolve(doc, node)?.content ?? {}) as Record<string, MediaType>);

/** Raw files (`format: binary`): bytes have no example worth showing. */
const isFile = (doc: Json, media: MediaType) => resolve(doc, media.schema)?.format === 'binary';

/** `<METHOD> <path>: what it lacks`, for every operation that lacks something. */
export function operationsLackingDocs(doc: Json): string[] {
  const problems: string[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const lacks: string[] = [];
      if (typeof op.summary !== 'string' || op.summary.trim() === '') lacks.push('a summary');
      if (op.requestBody) {
        const media = mediaOf(doc, op.requestBody).filter((m) => !isFile(doc, m));
        if (media.length > 0 && !media.some(hasExample)) lacks.push('a request example');
      }
      const responses = Object.entries((op.responses ?? {}) as Record<string, unknown>);
      const success = responses.filter(([code]) => /^2/.test(code)).flatMap(([, r]) => mediaOf(doc, r));
      // The success body shows the example; without one (a 204), one of the other responses does.
      const shown = (success.length > 0 ? success : responses.flatMap(([, r]) => mediaOf(doc, r))).filter(
        (m) => !isFile(doc, m),
      );
      if (shown.length > 0 && !shown.some(hasExample)) lacks.push('a response example');
      if (lacks.length) problems.push(`${method.toUpperCase()} ${path}: lacks ${lacks.join(', ')}`);
    }
  }
  return problems;
}

if (require.main === module) {
  const doc = parse(readFileSync(join(__dirname, '..', 'openapi.yaml'), 'utf8')) as Json;
  const problems = operationsLackingDocs(doc);
  if (problems.length) {
    console.error(
      `contracts/openapi.yaml: every operation needs a summary, a request example and a response example:\n  ${problems.join('\n  ')}`,
    );
    process.exit(1);
  }
}
