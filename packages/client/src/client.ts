import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { TravelApiError } from './errors';
import type { paths } from './openapi';
import {
  pageNumbers,
  walkPages,
  type ItemOf,
  type ListArgs,
  type ListPath,
  type PageBody,
  type PageOf,
  type PageReader,
  type PageStrategy,
} from './paging';
import { payOutReadyEntries, type PayOutOptions, type PayOutResult } from './payouts';
import { transportFetch, type TransportOptions } from './transport';

export interface TravelClientOptions extends TransportOptions {
  /** Where the API is, without `/api/v1` (e.g. `https://travel.example.com`). */
  baseUrl: string;
  /** The API key (`tek_…`), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** How `paginate` walks lists unless a call says otherwise (page numbers). */
  paging?: PageStrategy;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export interface TravelClient {
  /**
   * Every operation of the contract, typed (openapi-fetch): `await api.GET('/api/v1/employees/{id}', …)`
   * resolves `{ data, response }` on success and throws a `TravelApiError` on an error status.
   */
  readonly api: Client<paths>;
  /** The same operations without throwing: `{ data }` or `{ error }` (the typed problem) with `response`. */
  readonly raw: Client<paths>;
  /** Every page of a list, in order. */
  pages<P extends ListPath>(path: P, ...args: ListArgs<P>): AsyncIterable<PageOf<P>>;
  /** Every item of every page of a list: `for await (const e of client.paginate('/api/v1/employees'))`. */
  paginate<P extends ListPath>(path: P, ...args: ListArgs<P>): AsyncIterable<ItemOf<P>>;
  /** `paginate` into an array. */
  listAll<P extends ListPath>(path: P, ...args: ListArgs<P>): Promise<ItemOf<P>[]>;
  /** The spec's payout procedure: read every ready page, de-duplicate by id, then create the batch. */
  payOutReadyEntries(options: PayOutOptions): Promise<PayOutResult>;
}

/** Throws the problem as a `TravelApiError` for every error status, so `api` callers get data or an error. */
const throwOnError: Middleware = {
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : text;
    } catch {
      /* not JSON: kept as text */
    }
    throw new TravelApiError(request.method, request.url, response, body);
  },
};

export function createTravelClient(options: TravelClientOptions): TravelClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const make = () =>
    createClient<paths>({
      baseUrl,
      fetch: transportFetch(options),
      headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
    });
  const api = make();
  api.use(throwOnError);
  const raw = make();

  const readPage: PageReader = async (path, pathParams, query, signal) => {
    // The path is one of ListPath, checked at the call; openapi-fetch's per-path types end here.
    const get = api.GET as unknown as (p: string, init: object) => Promise<{ data: PageBody }>;
    const { data } = await get(path, { params: { path: pathParams, query }, signal });
    return data;
  };
  const paging = options.paging ?? pageNumbers;

  const client: TravelClient = {
    api,
    raw,
    pages: (path, ...[params, pageOptions = {}]) =>
      walkPages(readPage, path, params as never, pageOptions, paging) as AsyncIterable<never>,
    async *paginate(path, ...args) {
      for await (const page of client.pages(path, ...args)) yield* (page as PageBody<never>).items;
    },
    async listAll(path, ...args) {
      const all = [];
      for await (const item of client.paginate(path, ...args)) all.push(item);
      return all;
    },
    payOutReadyEntries: (payOutOptions) => payOutReadyEntries(client, payOutOptions),
  };
  return client;
}
