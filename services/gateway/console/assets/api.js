// The console's calls: /console/session for signing in and out, /api/v1 for everything else. The session
// cookie is httpOnly (this code never sees the key); every call carries the session's CSRF token, reads
// included (the gateway refuses a cookie request without it, docs/decisions/0193). The gateway lets the
// cookie reach only the calls this page makes (CONSOLE_REACH, services/gateway/src/http/console/reach.ts):
// a new api(…) call here needs its line there, or the unit test beside that list fails.

let csrfToken = null;

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** Fired when the gateway answers 401: the session ended (expired, signed out elsewhere, key revoked). */
export const SIGNED_OUT = 'console:signed-out';

async function send(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
    parsed = undefined;
  }
  if (!res.ok) throw new ApiError(res.status, parsed);
  return parsed;
}

/** The current session ({ csrfToken, expiresAt }), or null when not signed in. */
export async function currentSession() {
  try {
    const session = await send('GET', '/console/session');
    csrfToken = session.csrfToken;
    return session;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export async function signIn(apiKey) {
  const session = await send('POST', '/console/session', { apiKey });
  csrfToken = session.csrfToken;
  return session;
}

export async function signOut() {
  try {
    await send('DELETE', '/console/session');
  } finally {
    csrfToken = null;
  }
}

/** A call to /api/v1 with the session; a 401 signs the page out. */
export async function api(method, path, body) {
  try {
    return await send(method, `/api/v1${path}`, body);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      csrfToken = null;
      window.dispatchEvent(new CustomEvent(SIGNED_OUT, { detail: err.message }));
    }
    throw err;
  }
}

/** A query string of the set values only. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
