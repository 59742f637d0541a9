import type { Client } from 'openapi-fetch';
import type { paths } from './openapi';
import type { ItemOf, ListArgs, ListPath, PageOf } from './paging';

/** The operations and list walks of a client: what the procedures built on it (payouts.ts) use. */
export interface TravelApi {
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
}
