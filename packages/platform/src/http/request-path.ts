// The one reading of a request target's path (docs/decisions/0097). The gateway routes, matches the
// contract and forwards with the string this returns, and every service refuses a path that is not
// already in this form: nothing downstream (URL resolution, a router, a validator) may read a path
// differently from the check that let it through.

/** A path in canonical form, the query as it came (with its `?`, or empty). */
export interface CanonicalTarget {
  ok: true;
  path: string;
  query: string;
}

export interface RefusedTarget {
  ok: false;
  /** What the path contains that is refused ("a dot segment"), for the 400 body; never echoes the path. */
  reason: string;
}

// RFC 3986 pchar and '/', without ';' (matrix parameters are refused, never stripped or forwarded).
const ALLOWED_RAW = /^[A-Za-z0-9\-._~!$&'()*+,=:@/%]*$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
// Decoded, these change the path's structure or meaning downstream: separators, the escape character
// itself (double encoding), parameters, and control characters (NUL included).
// eslint-disable-next-line no-control-regex
const STRUCTURAL = /[/\\%;?#\u0000-\u001f\u007f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const refuse = (reason: string): RefusedTarget => ({ ok: false, reason });

/**
 * Decodes escapes of unreserved characters (`%65` → `e`, `%2E` → `.`), writes every other escape in
 * upper case, and refuses escapes of structural characters and bytes that are not UTF-8 (overlong
 * forms such as `%c0%ae` included).
 */
function decodeUnreserved(segment: string): string | RefusedTarget {
  let out = '';
  for (let i = 0; i < segment.length;) {
    if (segment[i] !== '%') {
      out += segment[i++];
      continue;
    }
    const bytes: number[] = [];
    while (segment[i] === '%') {
      const hex = segment.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return refuse('a "%" not followed by two hex digits');
      bytes.push(parseInt(hex, 16));
      i += 3;
    }
    let text: string;
    try {
      text = utf8.decode(Uint8Array.from(bytes));
    } catch {
      return refuse('percent-escapes that are not UTF-8');
    }
    for (const char of text) {
      if (STRUCTURAL.test(char)) return refuse(`an encoded ${JSON.stringify(char)}`);
      out += UNRESERVED.test(char)
        ? char
        : [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    }
  }
  return out;
}

/**
 * The canonical form of a request target (`req.originalUrl`), or why it is refused: dot segments (raw
 * or encoded, any case), empty segments, backslashes, `;`, encoded separators, NUL and invalid UTF-8.
 * A trailing '/' is kept (the gateway's own pages use it); the API refuses it on its own.
 */
export function canonicalTarget(target: string): CanonicalTarget | RefusedTarget {
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q);
  if (!rawPath.startsWith('/')) return refuse('a target that does not start with "/"');
  if (rawPath.includes('\\')) return refuse('a backslash');
  if (rawPath.includes(';')) return refuse('a ";" (matrix parameters are not supported)');
  if (!ALLOWED_RAW.test(rawPath)) return refuse('a character that must be percent-encoded');
  const segments = rawPath.slice(1).split('/');
  const canonical: string[] = [];
  for (const [index, raw] of segments.entries()) {
    const segment = decodeUnreserved(raw);
    if (typeof segment !== 'string') return segment;
    if (segment === '' && index < segments.length - 1) return refuse('an empty segment ("//")');
    if (/^\.+$/.test(segment)) return refuse('a dot segment ("." or "..")');
    canonical.push(segment);
  }
  return { ok: true, path: `/${canonical.join('/')}`, query };
}
