import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { baseVersion, type CollectionState, type CollectionVersions } from '../mongo/collection-versions';
import { listRequest, type ListPage, type ListRequest } from '../mongo/list-page';
import { REMEMBERED_URL_MAX_LENGTH } from '../limits';
import { wholeKey } from '../whole-key';

// Conditional GETs from the collections' versions (docs/decisions/0155): the ETag is known before the data
// is read, so `If-None-Match` is answered 304 with one point read of the version, and a body already sent
// for the same version, URL and view is sent again without reading the data. What is remembered is keyed by
// the whole tenant, URL, view and versions (0192), never by a hash of them: the hash is only in the ETag.

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

/**
 * Bodies a client may ask for again, by the whole tenant, URL, view and versions (`bodyKey`, 0192):
 * bounded in bytes (keys counted too), oldest out first.
 */
class BodyCache {
  private readonly bodies = new Map<string, string>();
  private bytes = 0;
  constructor(
    private readonly maxTotal: number,
    private readonly maxOne: number,
  ) {}
  get(key: string): string | undefined {
    return this.bodies.get(key);
  }
  set(key: string, body: string): void {
    if (body.length > this.maxOne || this.bodies.has(key)) return;
    this.bodies.set(key, body);
    this.bytes += key.length + body.length;
    for (const [oldest, gone] of this.bodies) {
      if (this.bytes <= this.maxTotal) break;
      this.bodies.delete(oldest);
      this.bytes -= oldest.length + gone.length;
    }
  }
}

/**
 * Whether the request's If-None-Match names this (weak) ETag, by weak comparison (RFC 9110 13.1.2). `*`
 * is not honoured: it would promise that the record exists, which only reading it tells.
 */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
}

/**
 * An answer for this key only, revalidated before reuse: a shared cache never serves one key's answer to
 * another, clients ask again with If-None-Match.
 */
export const PRIVATE_ANSWER_HEADERS = { vary: 'Authorization, X-Api-Key', 'cache-control': 'private, no-cache' };

function privateAnswer(res: Response): void {
  res.set('Vary', PRIVATE_ANSWER_HEADERS.vary);
  res.set('Cache-Control', PRIVATE_ANSWER_HEADERS['cache-control']);
}

/** What a GET that reached `answer` read, so that the same GET again needs no router (0182). */
interface RememberedRead {
  collections: readonly string[];
  /** The route template, for the RED metrics and the request log. */
  route: string;
  /** The ETag's hash of this tenant, URL and view (`ConditionalReads.scope`), taken once. */
  scope: string;
}

/** A remembered answer: 304 when `body` is undefined. */
export interface RememberedAnswer {
  route: string;
  tag: string;
  body?: string;
}

/** The key of a remembered read: the whole tenant, URL and view (0192). */
const readKey = (tenantId: string, url: string, view: string): string => wholeKey(tenantId, url, view);

const versionsOf = (states: readonly CollectionState[]): string =>
  states.map((s) => `${s.epoch}.${baseVersion(s)}`).join('-');

/**
 * The key of a remembered body, and of its production in flight: the whole tenant, URL, view and the
 * versions the body was read at (0192). Epochs and versions hold no `-`, so the versions part is exact.
 */
const bodyKey = (tenantId: string, url: string, view: string, versions: string): string =>
  wholeKey(tenantId, url, view, versions);

/** Whether answers to this URL may be remembered: a longer one is answered every time, never kept (0192). */
const rememberable = (url: string): boolean => url.length <= REMEMBERED_URL_MAX_LENGTH;

/**
 * A read of data that is not versioned (0159): the ETag is a hash of the body, so the data is read, but an
 * unchanged answer goes out as 304 without a body. Decided here rather than by express, whose freshness
 * check the response validator's wrapping of `res.json` gets around.
 */
export function answerByBody(req: Request, res: Response, body: unknown): void {
  privateAnswer(res);
  const text = JSON.stringify(body);
  const tag = `W/"${createHash('sha1').update(text).digest('base64url')}"`;
  res.set('ETag', tag);
  if (noneMatch(req.get('if-none-match'), tag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(text);
}

/**
 * A body that will change with time alone, with no write (a rotated secret's grace that ends): it is
 * answered by its own hash (`answerByBody`), never remembered nor tagged with the version, so neither a
 * remembered body nor a 304 can outlive the moment it changes. Once nothing in it waits on the clock, the
 * producer returns the plain body and the version answers again.
 */
export class ChangesWithTime {
  constructor(readonly body: unknown) {}
}

export class ConditionalReads {
  private readonly cache: BodyCache;
  private readonly producing = new Map<string, Promise<string | ChangesWithTime>>();
  private readonly reads = new Map<string, RememberedRead>();
  private readonly maxReads: number;

  constructor(
    private readonly versions: CollectionVersions,
    { totalBytes = 32 * 1024 * 1024, maxBytes = 256 * 1024, maxReads = 20_000 } = {},
  ) {
    this.cache = new BodyCache(totalBytes, maxBytes);
    this.maxReads = maxReads;
  }

  /**
   * Remembers that this tenant, URL and view reached `answer` for these collections: the request passed
   * every check before it (the contract, the route's own, which depend on nothing else), so the same GET
   * again may be answered by `remembered` alone.
   */
  private rememberRead(of: ReadOf, url: string, route: string, scope: string): void {
    if (!rememberable(url)) return;
    const key = readKey(of.tenantId, url, of.view);
    if (this.reads.has(key)) return;
    if (this.reads.size >= this.maxReads) this.reads.delete(this.reads.keys().next().value!);
    this.reads.set(key, { collections: of.collections, route, scope });
  }

  /**
   * The answer `answer` would give this GET without producing anything (docs/decisions/0182): 304 for the
   * current ETag or the body remembered under it, for a tenant, URL and view that reached `answer` before.
   * Undefined at once for a GET never read this way (no store read); resolves undefined when no body is
   * remembered under the current ETag. Either way only the whole path can answer.
   */
  remembered(
    tenantId: string,
    url: string,
    view: string,
    ifNoneMatch: string | undefined,
  ): Promise<RememberedAnswer | undefined> | undefined {
    const read = this.reads.get(readKey(tenantId, url, view));
    if (!read) return undefined;
    return Promise.all(read.collections.map((c) => this.versions.state(tenantId, c))).then((states) => {
      const versions = versionsOf(states);
      const tag = ConditionalReads.tagOf(versions, read.scope);
      if (noneMatch(ifNoneMatch, tag)) return { route: read.route, tag };
      const body = this.cache.get(bodyKey(tenantId, url, view, versions));
      return body === undefined ? undefined : { route: read.route, tag, body };
    });
  }

  /**
   * One production per body key at a time (0179): readers of the same tenant, URL, view and versions that
   * miss the remembered bodies together (all readers after a write ends) share one read of the data.
   * Sharing is as safe as the remembered body itself: it goes by the same whole key (0192).
   */
  private produceOnce(
    key: string,
    states: ReadonlyMap<string, CollectionState>,
    produce: Produce,
  ): Promise<string | ChangesWithTime> {
    let producing = this.producing.get(key);
    if (!producing) {
      producing = produce(states)
        .then((p) => (p instanceof ChangesWithTime ? p : JSON.stringify(p)))
        .finally(() => this.producing.delete(key));
      this.producing.set(key, producing);
    }
    return producing;
  }

  /**
   * The ETag's part for this tenant, URL and view: the whole SHA-256 of their whole key, not shortened
   * (0192). Only a client's If-None-Match is compared with it; nothing is remembered under it.
   */
  static scope(tenantId: string, url: string, view: string): string {
    return createHash('sha256')
      .update(wholeKey(tenantId, url, view))
      .digest('base64url');
  }

  private static tagOf(versions: string, scope: string): string {
    return `W/"${versions}-${scope}"`;
  }

  /** Weak: the same version gives an equivalent body, not necessarily the same bytes (compression, key order). */
  static etag(of: ReadOf, url: string, states: readonly CollectionState[]): string {
    return ConditionalReads.tagOf(versionsOf(states), ConditionalReads.scope(of.tenantId, url, of.view));
  }

  /**
   * Answers a GET: 304 when If-None-Match names the current ETag, the remembered body of this ETag, or
   * the produced one, remembered. While writes are in flight the ETag is that of the last settled version
   * as long as none of them has ended (`baseVersion`): a 304 or a body of that version is then an answer
   * the writes in flight may come before or after. A body read meanwhile may hold some of those writes
   * and is remembered under that ETag too (0179): every write it can hold is still unacknowledged while
   * the ETag stands, and the first write to end changes it.
   */
  async answer(req: Request, res: Response, of: ReadOf, produce: Produce): Promise<void> {
    const states = await Promise.all(of.collections.map((c) => this.versions.state(of.tenantId, c)));
    const byName = new Map(of.collections.map((c, i) => [c, states[i]!] as const));
    privateAnswer(res);
    const url = req.originalUrl;
    const versions = versionsOf(states);
    const scope = ConditionalReads.scope(of.tenantId, url, of.view);
    const tag = ConditionalReads.tagOf(versions, scope);
    const route = req.route?.path === undefined ? undefined : `${req.baseUrl}${String(req.route.path)}`;
    if (noneMatch(req.get('if-none-match'), tag)) {
      res.set('ETag', tag).status(304).end();
      if (route) this.rememberRead(of, url, route, scope);
      return;
    }
    const key = bodyKey(of.tenantId, url, of.view, versions);
    let body = this.cache.get(key);
    if (body === undefined) {
      const produced = await this.produceOnce(key, byName, produce); // a 404 or 403 goes out without the ETag
      if (produced instanceof ChangesWithTime) return answerByBody(req, res, produced.body);
      body = produced;
      if (rememberable(url)) this.cache.set(key, body);
    }
    res.set('ETag', tag);
    res.type('application/json').send(body);
    if (route) this.rememberRead(of, url, route, scope);
  }
}

/**
 * A service's GETs answered conditionally (docs/decisions/0155): the ETag comes from the versions of the
 * collections the answer reads (by their names, as `TenantModel.collection` gives them) and the caller's
 * view. A list reads at the states the ETag was made of (`list`), so its total comes from its repository's
 * totals cache while its collection did not change (0157, 0233).
 */
export class ConditionalGets {
  private readonly reads: ConditionalReads;

  constructor(versions: CollectionVersions) {
    this.reads = new ConditionalReads(versions);
  }

  /** The answer a GET of this caller already read gets without a router (ConditionalReads.remembered). */
  remembered(
    caller: { tenantId: string; employeeId: string; permissions: readonly string[] },
    url: string,
    ifNoneMatch: string | undefined,
  ): Promise<RememberedAnswer | undefined> | undefined {
    return this.reads.remembered(caller.tenantId, url, callerView(caller), ifNoneMatch);
  }

  answer(
    req: Request,
    res: Response,
    caller: { tenantId: string; employeeId: string; permissions: readonly string[] },
    models: ReadonlyArray<{ readonly collection: string }>,
    produce: Produce,
  ): Promise<void> {
    const collections = models.map((m) => m.collection);
    const of = { tenantId: caller.tenantId, collections, view: callerView(caller) };
    return this.reads.answer(req, res, of, produce);
  }

  /**
   * A list's GET (0156, 0233): its query read and checked (`listRequest`) before anything is read, the page
   * read at the states of `models` the ETag is made of, each record shown by `item`; `body` may make the
   * envelope something else (`ChangesWithTime`).
   */
  list<R, B>(
    req: Request,
    res: Response,
    caller: { tenantId: string; employeeId: string; permissions: readonly string[] },
    models: ReadonlyArray<{ readonly collection: string }>,
    read: (request: ListRequest) => Promise<ListPage<R>>,
    item: (record: R) => B,
    body: (listed: ListPage<B>) => unknown = (listed) => listed,
  ): Promise<void> {
    const request = listRequest(req.query);
    return this.answer(req, res, caller, models, async (asOf) => {
      const found = await read({ ...request, asOf });
      return body({ ...found, items: found.items.map((record) => item(record)) });
    });
  }
}
