// The client against a scripted fetch: typed errors, network errors apart from them, retries only where
// safe (docs/decisions/0152), paging by page numbers or a cursor, the payout procedure's de-duplication and
// its second try without refused entries (docs/decisions/0153). The same over the real stack:
// tests/system/test/client.test.ts.
import { createTravelClient, cursorPaging, TravelApiError, TravelNetworkError, type TravelClientOptions } from '.';

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** A fetch that answers from a script, one answer per call, and records what it was sent. */
function scripted(...answers: (Response | Error | ((seen: Seen) => Response))[]) {
  const seen: Seen[] = [];
  const fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const call = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: await request.text(),
    };
    seen.push(call);
    const next = answers.shift();
    if (!next) throw new Error(`unexpected ${call.method} ${call.url}`);
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next(call) : next;
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const problem = (
  status: number,
  code: string,
  errors?: Record<string, string[]>,
  headers: Record<string, string> = {},
) =>
  new Response(
    JSON.stringify({ type: 'about:blank', title: 'The request is not valid.', status, code, errors, traceId: 'abc' }),
    {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    },
  );
const page = (items: { id: string }[], pageNo: number, totalPages: number, extra: object = {}) =>
  json({ items, page: pageNo, pageSize: 2, total: totalPages * 2, totalPages, ...extra });

const KEY = 'tek_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const client = (fetch: typeof globalThis.fetch, options: Partial<TravelClientOptions> = {}) =>
  createTravelClient({ baseUrl: 'https://api.example.test/', apiKey: KEY, fetch, retryDelayMs: 1, ...options });

describe('typed errors', () => {
  it('an error status throws the documented body as a TravelApiError: status, code, field errors, trace id', async () => {
    const { fetch, seen } = scripted(problem(400, 'VALIDATION_FAILED', { pageSize: ['must be at most 100'] }));
    const error = await client(fetch)
      .api.GET('/api/v1/payouts/ready', { params: { query: { pageSize: 101 } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TravelApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      errors: { pageSize: ['must be at most 100'] },
      traceId: 'abc',
      method: 'GET',
    });
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(seen[0]!.url.href).toBe('https://api.example.test/api/v1/payouts/ready?pageSize=101');
  });

  it('a body that is no problem still gives the status, with code UNKNOWN and the text', async () => {
    const { fetch } = scripted(new Response('<html>bad gateway</html>', { status: 502 }));
    const error = await client(fetch, { retries: 0 })
      .api.GET('/api/v1/company')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'TravelApiError',
      status: 502,
      code: 'UNKNOWN',
      errors: {},
      body: '<html>bad gateway</html>',
    });
  });

  it('raw answers the typed problem without throwing', async () => {
    const { fetch } = scripted(problem(404, 'NOT_FOUND'));
    const { data, error, response } = await client(fetch).raw.GET('/api/v1/payouts/{id}', {
      params: { path: { id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('no answer is a TravelNetworkError, not an API error; a time-out says so', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    const { fetch } = scripted(refused);
    const error = await client(fetch, { retries: 0 })
      .api.GET('/api/v1/company')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TravelNetworkError);
    expect(error).not.toBeInstanceOf(TravelApiError);
    expect(error).toMatchObject({ timedOut: false, message: expect.stringContaining('ECONNREFUSED') });

    const never = (async (_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)),
      )) as typeof globalThis.fetch;
    const late = await client(never, { retries: 0, timeoutMs: 20 })
      .api.GET('/api/v1/company')
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(TravelNetworkError);
    expect(late).toMatchObject({ timedOut: true });
  });
});

describe('retries only where safe', () => {
  it('a read is retried on 503 and on no answer, then succeeds', async () => {
    const { fetch, seen } = scripted(
      problem(503, 'SERVICE_UNAVAILABLE'),
      new TypeError('fetch failed'),
      json({ id: 'c' }),
    );
    const { data } = await client(fetch).api.GET('/api/v1/company');
    expect(data).toEqual({ id: 'c' });
    expect(seen).toHaveLength(3);
  });

  it('a write is not retried on 503 nor on no answer: it may have been carried out', async () => {
    const body = { payoutMethod: 'Cash' as const, entryIds: ['6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'] };
    const first = scripted(problem(503, 'SERVICE_UNAVAILABLE'), json({}, 201));
    await expect(client(first.fetch).api.POST('/api/v1/payouts', { body })).rejects.toMatchObject({ status: 503 });
    expect(first.seen).toHaveLength(1);
    const second = scripted(new TypeError('fetch failed'), json({}, 201));
    await expect(client(second.fetch).api.POST('/api/v1/payouts', { body })).rejects.toBeInstanceOf(TravelNetworkError);
    expect(second.seen).toHaveLength(1);
  });

  it('a write refused with 429 is sent again, with the same body, after Retry-After', async () => {
    const body = { payoutMethod: 'Cash' as const, entryIds: ['6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f'] };
    const { fetch, seen } = scripted(
      problem(429, 'RATE_LIMITED', undefined, { 'retry-after': '0' }),
      json({ id: 'b' }, 201),
    );
    const { data } = await client(fetch).api.POST('/api/v1/payouts', { body });
    expect(data).toEqual({ id: 'b' });
    expect(seen.map((s) => JSON.parse(s.body))).toEqual([body, body]);
  });

  it('a Retry-After beyond the limit is not waited for, and retries: 0 turns retries off', async () => {
    const long = scripted(problem(429, 'RATE_LIMITED', undefined, { 'retry-after': '120' }));
    await expect(client(long.fetch).api.GET('/api/v1/company')).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 120,
    });
    expect(long.seen).toHaveLength(1);
    const off = scripted(problem(503, 'SERVICE_UNAVAILABLE'));
    await expect(client(off.fetch, { retries: 0 }).api.GET('/api/v1/company')).rejects.toMatchObject({ status: 503 });
    expect(off.seen).toHaveLength(1);
  });
});

describe('paging', () => {
  it('for await reads every page until page >= totalPages, keeping the filters', async () => {
    const { fetch, seen } = scripted(page([{ id: 'a' }, { id: 'b' }], 1, 2), page([{ id: 'c' }], 2, 2));
    const ids: string[] = [];
    for await (const e of client(fetch).paginate('/api/v1/employees', { query: { q: 'Ana' } }, { pageSize: 2 }))
      ids.push(e.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(seen.map((s) => Object.fromEntries(s.url.searchParams))).toEqual([
      { q: 'Ana', pageSize: '2', page: '1' },
      { q: 'Ana', pageSize: '2', page: '2' },
    ]);
  });

  it('an empty list is one request and no item', async () => {
    const { fetch, seen } = scripted(json({ items: [], page: 1, pageSize: 100, total: 0, totalPages: 0 }));
    expect(await client(fetch).listAll('/api/v1/payouts')).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('a cursor strategy plugs in on the client, and callers stay the same', async () => {
    const { fetch, seen } = scripted(
      page([{ id: 'a' }], 1, 1, { nextCursor: 'k1' }),
      page([{ id: 'b' }], 1, 1, { nextCursor: null }),
    );
    const cursorClient = client(fetch, { paging: cursorPaging('cursor', 'nextCursor') });
    expect((await cursorClient.listAll('/api/v1/payouts')).map((b) => b.id)).toEqual(['a', 'b']);
    expect(seen.map((s) => Object.fromEntries(s.url.searchParams))).toEqual([
      { pageSize: '100' },
      { pageSize: '100', cursor: 'k1' },
    ]);
  });
});

describe('payout procedure', () => {
  const ready = (id: string) => ({
    id,
    entryNumber: id,
    employeeId: 'e',
    approvedAt: '2026-11-20T09:15:00.000Z',
    amountDue: 10,
    currencyCode: 'CZK',
    direction: 'ToEmployee',
  });

  it('reads every page, sends an entry that moved between pages once, and creates the batch after the last page', async () => {
    const { fetch, seen } = scripted(
      page([ready('a'), ready('b')], 1, 2),
      page([ready('b'), ready('c')], 2, 2), // a newly approved entry pushed b onto page 2
      json({ id: 'batch' }, 201),
    );
    const result = await client(fetch).payOutReadyEntries({ payoutMethod: 'BankTransfer', pageSize: 2 });
    expect(seen.map((s) => s.method)).toEqual(['GET', 'GET', 'POST']);
    expect(JSON.parse(seen[2]!.body)).toEqual({ payoutMethod: 'BankTransfer', entryIds: ['a', 'b', 'c'] });
    expect(result).toEqual({ batches: [{ id: 'batch' }], readyEntryIds: ['a', 'b', 'c'], refused: {} });
  });

  it('entries refused at creation (paid out meanwhile) are left out and the batch is created without them', async () => {
    const { fetch, seen } = scripted(
      page([ready('a'), ready('b'), ready('c')], 1, 1),
      problem(400, 'VALIDATION_FAILED', { 'entryIds[1]': ['is already paid out'] }),
      json({ id: 'batch' }, 201),
    );
    const result = await client(fetch).payOutReadyEntries({ payoutMethod: 'Cash' });
    expect(JSON.parse(seen[2]!.body).entryIds).toEqual(['a', 'c']);
    expect(result.refused).toEqual({ b: ['is already paid out'] });
    expect(result.batches).toEqual([{ id: 'batch' }]);
  });

  it('any other error goes to the caller; nothing ready creates no batch', async () => {
    const failing = scripted(page([ready('a')], 1, 1), problem(403, 'FORBIDDEN'));
    await expect(client(failing.fetch).payOutReadyEntries({ payoutMethod: 'Cash' })).rejects.toMatchObject({
      status: 403,
    });
    const empty = scripted(json({ items: [], page: 1, pageSize: 100, total: 0, totalPages: 0 }));
    expect(await client(empty.fetch).payOutReadyEntries({ payoutMethod: 'Cash' })).toEqual({
      batches: [],
      readyEntryIds: [],
      refused: {},
    });
    expect(empty.seen).toHaveLength(1);
  });
});
