import type { IncomingHttpHeaders } from 'node:http';

/** The header the console sends its session's CSRF token in (docs/decisions/0146). */
export const CSRF_HEADER = 'x-csrf-token';

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Why a request is not from a page of this origin, or null when nothing says so. A browser names the page's
 * origin (`Origin`) and how the request relates to it (`Sec-Fetch-Site`) on every POST and DELETE; a request
 * without either is not a browser's (a script's, which holds no cookie of the victim). The port counts: a page
 * on another port of the same host is same-site, which SameSite=Strict lets through, but not same-origin.
 */
export function foreignOriginReason(headers: IncomingHttpHeaders): string | null {
  const site = first(headers['sec-fetch-site']);
  if (site !== undefined && site !== 'same-origin') return `the request came from a ${site} page`;
  const origin = first(headers.origin);
  if (origin === undefined) return null;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return 'its Origin is not a URL';
  }
  return host === headers.host ? null : `it came from ${origin}`;
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Cookie header without the named cookie (undefined when nothing is left). */
export function withoutCookie(header: string | undefined, name: string): string | undefined {
  const rest = (header?.split(';') ?? []).filter((part) => part.split('=')[0]!.trim() !== name);
  return rest.length ? rest.join(';').trim() : undefined;
}
