import createClient, { type Middleware } from 'openapi-fetch';
import { TravelApiError } from './errors';
import type { paths } from './openapi';
import { pageNumbers, walkPages, type PageBody, type PageReader, type PageStrategy } from './paging';
import { payOutReadyEntries, type PayOutOptions, type PayOutResult } from './payouts';
import { transportFetch, type TransportOptions } from './transport';
import type { TravelApi } from './travel-api';

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

export interface TravelClient extends TravelApi {
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
