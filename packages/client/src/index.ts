export { createTravelClient } from './client';
export type { TravelClient, TravelClientOptions } from './client';
export { TravelApiError, TravelNetworkError } from './errors';
export type { Problem, ProblemCode } from './errors';
export { isRetryable } from './transport';
export type { TransportOptions } from './transport';
export { pageNumbers, cursorPaging, MAX_PAGE_SIZE } from './paging';
export type {
  PageStrategy,
  PageQuery,
  PageBody,
  ListPath,
  PageOf,
  ItemOf,
  ListParams,
  ListArgs,
  PaginateOptions,
} from './paging';
export { payOutReadyEntries, MAX_ENTRIES_PER_BATCH } from './payouts';
export type { PayOutOptions, PayOutResult, PayoutMethod, PayoutBatch, ReadyForPayout } from './payouts';
export * from './webhooks';
export type { paths, components, operations } from './openapi';
