/**
 * What a request authenticated by the console's session cookie may reach under /api/v1: the console's own
 * views and actions, and nothing else (docs/decisions/0193). Paths are relative to /api/v1, as the
 * console's `api(method, path)` takes them; `{name}` is one path segment. `reach.test.ts` reads the
 * console's scripts and fails when they call anything outside this list, so the page and the list move
 * together. Everything else with the cookie is refused before it is forwarded: an API key does the rest.
 */
export const CONSOLE_REACH: readonly { method: string; path: string }[] = [
  // The company's name in the header.
  { method: 'GET', path: '/company' },
  // Subscriptions: list, read, register, delete, recover what was missed, rotate the signing secret.
  { method: 'GET', path: '/webhooks' },
  { method: 'POST', path: '/webhooks' },
  { method: 'GET', path: '/webhooks/{id}' },
  { method: 'DELETE', path: '/webhooks/{id}' },
  { method: 'POST', path: '/webhooks/{id}/recover' },
  { method: 'POST', path: '/webhooks/{id}/rotate-secret' },
  // A subscription's delivery log: list, read one, retry one.
  { method: 'GET', path: '/webhooks/{id}/deliveries' },
  { method: 'GET', path: '/webhooks/{id}/deliveries/{deliveryId}' },
  { method: 'POST', path: '/webhooks/{id}/deliveries/{deliveryId}/retry' },
];

const API_PREFIX = '/api/v1';

/** A template as a pattern of whole segments: a parameter is one segment, never a `/` nor an empty one. */
const patternOf = (path: string) =>
  new RegExp(
    `^${API_PREFIX}${path
      .split('/')
      .map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')))
      .join('/')}$`,
  );

const COMPILED = CONSOLE_REACH.map(({ method, path }) => ({ method, pattern: patternOf(path) }));

/** Whether the console may make this request with its cookie: `path` is the canonical /api/v1 path, no query. */
export function consoleMayReach(method: string, path: string): boolean {
  const m = method.toUpperCase();
  return COMPILED.some((entry) => entry.method === m && entry.pattern.test(path));
}
