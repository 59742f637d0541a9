import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { CollectionState, CollectionVersions } from '../mongo/collection-versions';

// Conditional GETs from the collections' versions (docs/decisions/0155): the ETag is known before the data
// is read, so `If-None-Match` is answered 304 with one point read of the version, and a body already sent
// for the same version, URL and view is sent again without reading the data.

export interface ReadOf {
  tenantId: string;
  /** The collections whose writes can change this answer (their versions make the ETag). */
  collections: readonly string[];
  /**
   * What of the caller the body depends on beyond the tenant (the rights that show personal data, the
   * caller's own employee): callers with different views get different ETags.
   */
  view: string;
}

/**
 * The view of a caller: everything of the caller a body or a refusal may depend on (the employee, the
 * permissions; the tenant is in the ETag anyway). Callers with the same view get the same answers.
 */
export const callerView = (caller: { employeeId: string; permissions: readonly string[] }): string =>
  `${caller.employeeId}|${[...caller.permissions].sort().join(',')}`;

/** The answer's producer gets the states read before it, so totals can be taken from their cache. */
export type Produce = (states: ReadonlyMap<string, CollectionState>) => Promise<unknown>;

/** Bodies a client may ask for again, by ETag (the version, URL and view are in it): bounded in bytes, oldest out first. */
class BodyCache {
  private readonly bodies = new Map<string, string>();
  private bytes = 0;
  constructor(
    private readonly maxTotal: number,
    private readonly maxOne: number,
  ) {}
  get(tag: string): string | undefined {
    return this.bodies.get(tag);
  }
  set(tag: string, body: string): void {
    if (body.length > this.maxOne || this.bodies.has(tag)) return;
    this.bodies.set(tag, body);
    this.bytes += body.length;
    for (const [oldest, gone] of this.bodies) {
      if (this.bytes <= this.maxTotal) break;
      this.bodies.delete(oldest);
      this.bytes -= gone.length;
    }
  }
}

/** Whether the request's If-None-Match names this (weak) ETag; `*` names any. Weak comparison (RFC 9110 13.1.2). */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const candidate = t.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === opaque;
  });
}

export class ConditionalReads {
  private readonly cache: BodyCache;

  constructor(
    private readonly versions: CollectionVersions,
    { totalBytes = 32 * 1024 * 1024, maxBytes = 256 * 1024 } = {},
  ) {
    this.cache = new BodyCache(totalBytes, maxBytes);
  }

  /** Weak: the same version gives an equivalent body, not necessarily the same bytes (compression, key order). */
  static etag(of: ReadOf, url: string, states: readonly CollectionState[]): string {
    const versions = states.map((s) => `${s.epoch}.${s.version}`).join('-');
    const scope = createHash('sha1').update(`${of.tenantId}|${url}|${of.view}`).digest('base64url').slice(0, 16);
    return `W/"${versions}-${scope}"`;
  }

  /**
   * Answers a GET: 304 when If-None-Match names the current ETag, the remembered body of this ETag, or
   * the produced one. While a write is in flight there is no version ETag (express then tags the body
   * by its hash, which is always right, but costs the read).
   */
  async answer(req: Request, res: Response, of: ReadOf, produce: Produce): Promise<void> {
    const states = await Promise.all(of.collections.map((c) => this.versions.state(of.tenantId, c)));
    const byName = new Map(of.collections.map((c, i) => [c, states[i]!] as const));
    res.vary('Authorization');
    res.vary('X-Api-Key');
    res.set('Cache-Control', 'private, no-cache');
    if (!states.every((s) => s.settled)) {
      res.json(await produce(byName));
      return;
    }
    const tag = ConditionalReads.etag(of, req.originalUrl, states);
    if (noneMatch(req.get('if-none-match'), tag)) {
      res.set('ETag', tag).status(304).end();
      return;
    }
    let body = this.cache.get(tag);
    if (body === undefined) {
      body = JSON.stringify(await produce(byName)); // a 404 or 403 thrown here goes out without the ETag
      this.cache.set(tag, body);
    }
    res.set('ETag', tag);
    res.type('application/json').send(body);
  }
}
