// The checks of issue 25 (docs/decisions/0155, 0156) every service's reads answer, written once: an ETag
// and 304 while nothing changed, 200 with the new body after a write, no stale 304 under racing writes,
// and a list's bad cursor refused with 400 VALIDATION_FAILED under `cursor`.
import type { ApiClient } from '@travel/testkit';

type Answer = { status: number; text: string; body: any; headers: Headers };

/** Readers racing a writer send hundreds of requests a second with one key: not the rate limit's test. */
export const RACING_READERS_ENV = { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_BURST: '1000000' };

export const etagOf = (res: { headers: Headers }): string | null => res.headers.get('etag');

/** 200 with a weak ETag, then 304 without a body for If-None-Match of that ETag. */
export async function expectNotModifiedWhileUnchanged(api: ApiClient, path: string): Promise<Answer> {
  const first = await api.get(path);
  expect(first.status === 200 ? '' : `${path}: ${first.status} ${first.text}`).toBe('');
  const tag = etagOf(first);
  expect(tag).toMatch(/^W\/".+"$/);
  const again = await api.get(path, { 'if-none-match': tag! });
  expect(again.status === 304 ? '' : `${path}: ${again.status} ${again.text}`).toBe('');
  expect(again.text).toBe('');
  expect(etagOf(again)).toBe(tag);
  expect(again.headers.get('vary')).toMatch(/authorization/i);
  return first;
}

/** After `write`, If-None-Match of the earlier ETag answers 200 with a new ETag; the body is returned. */
export async function expectChangedAfter(api: ApiClient, path: string, write: () => Promise<unknown>): Promise<any> {
  const before = await api.get(path);
  expect(before.status).toBe(200);
  await write();
  const after = await api.get(path, { 'if-none-match': etagOf(before)! });
  expect(after.status === 200 ? '' : `${path}: ${after.status}`).toBe('');
  expect(etagOf(after)).not.toBe(etagOf(before));
  return after.body;
}

/**
 * Writes numbered 1..writes race readers of `paths` holding their last ETag: a 304 or a 200 must never
 * show a number below the last write answered before the read began. `numberOf` reads the number from a body.
 */
export async function expectNoStaleNotModified(
  api: ApiClient,
  paths: string[],
  write: (k: number) => Promise<void>,
  numberOf: (body: any) => number,
  writes = 20,
): Promise<void> {
  let finished = 0;
  let writing = true;
  const writer = (async () => {
    try {
      for (let k = 1; k <= writes; k++) {
        await write(k);
        finished = k;
        await new Promise((resolve) => setTimeout(resolve, 25)); // room for reads between writes, so 304s happen
      }
    } finally {
      writing = false;
    }
  })();
  const reader = async (url: string) => {
    let held = { tag: null as string | null, n: -1 };
    let notModified = 0;
    while (writing) {
      const before = finished;
      const res = await api.get(url, held.tag ? { 'if-none-match': held.tag } : {});
      if (res.status === 304) {
        notModified++;
        expect(held.n).toBeGreaterThanOrEqual(before); // a stale 304 would hold an older number
      } else {
        expect(res.status).toBe(200);
        held = { tag: etagOf(res), n: numberOf(res.body) };
        expect(held.n).toBeGreaterThanOrEqual(before);
      }
    }
    return notModified;
  };
  const [, ...notModified] = await Promise.all([writer, ...paths.flatMap((p) => [reader(p), reader(p)])]);
  expect(notModified.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
}

/**
 * Delta sync of `listPath` (with its own query, no `?` needed at the end): from `since`, pages of `pageSize`
 * followed by nextCursor; returns the ids in the order read.
 */
export async function deltaSync(
  api: ApiClient,
  listPath: string,
  since: string,
  pageSize = 2,
  { id = 'id', editedField = 'editedAt' }: { id?: string; editedField?: string } = {},
): Promise<string[]> {
  const sep = listPath.includes('?') ? '&' : '?';
  const base = `${listPath}${sep}updatedSince=${encodeURIComponent(since)}&pageSize=${pageSize}`;
  const ids: string[] = [];
  let cursor: string | null = null;
  let edited: string[] = [];
  for (let pages = 0; pages < 50; pages++) {
    const res: Answer = await api.get(cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base);
    expect(res.status === 200 ? '' : `${res.status} ${res.text}`).toBe('');
    expect(res.body.page).toBe(1);
    ids.push(...res.body.items.map((x: Record<string, string>) => x[id]));
    edited = [...edited, ...res.body.items.map((x: Record<string, string | undefined>) => x[editedField] ?? '')];
    cursor = res.body.nextCursor;
    if (cursor === null) break;
  }
  expect([...edited].sort()).toEqual(edited); // oldest edit first
  expect((await api.get(`${listPath}${sep}pageSize=${pageSize}`)).body.nextCursor).toBeNull(); // page order: no cursor
  return ids;
}

/** A malformed, altered or another query's cursor is 400 VALIDATION_FAILED under `cursor`; page 2 with updatedSince is 400. */
export async function expectBadCursorsRefused(api: ApiClient, listPath: string, otherQuery: string): Promise<void> {
  const sep = listPath.includes('?') ? '&' : '?';
  const since = new Date(Date.now() - 3_600_000).toISOString();
  const first = await api.get(`${listPath}${sep}updatedSince=${since}&pageSize=1`);
  const cursor: string = first.body.nextCursor;
  expect(cursor).toEqual(expect.any(String)); // the caller made two records at least
  const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  const altered = Buffer.from(JSON.stringify([decoded[0], decoded[1], 'another-query', decoded[3]])).toString(
    'base64url',
  );
  for (const [bad, query] of [
    ['not a cursor!', `updatedSince=${since}`],
    ['bm90IGpzb24', `updatedSince=${since}`],
    [altered, `updatedSince=${since}`],
    [cursor, otherQuery], // the cursor of another query
  ]) {
    const res = await api.get(`${listPath}${sep}${query}&cursor=${encodeURIComponent(bad!)}`);
    expect(res.status === 400 ? '' : `${bad} ${query}: ${res.status} ${res.text}`).toBe('');
    expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(res.body.errors.cursor).toEqual([expect.any(String)]);
  }
  const deep = await api.get(`${listPath}${sep}updatedSince=${since}&page=2`);
  expect(deep.status).toBe(400);
  expect(deep.body.errors.page).toEqual([expect.any(String)]);
}
