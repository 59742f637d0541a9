// The contract as the tests that read it see it: the parsed document, its operations' methods, and `$ref`
// resolution (JSON pointers within the document, with ~1 and ~0 unescaped).
import { openApiDocument } from '@travel/contracts';

export type Json = Record<string, unknown>;

export const doc = openApiDocument();
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The node a `$ref` (or a chain of them) names; the node itself when it is no reference. */
export function resolve(node: unknown): Json | undefined {
  let current = node as Json | undefined;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++)
    current = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((n, key) => (n as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as
      Json | undefined;
  return current;
}
