export type { paths, components, operations } from '../generated/openapi';

// contracts/openapi.yaml, parsed once.
export { openApiDocument, openApiPath } from './openapi-document';

// The one list of webhook event types and of routing keys, every event schema and the events' types
// (generated from openapi.yaml and contracts/events/internal: docs/events.md).
export * from '../generated/events';
// The events raised for a consumer not built yet, kept in `domain.announcements` (decision 0186).
export * from './announced-events';
// The registry of services (docs/services.md).
export * from './services';
// The form API keys are issued in (employees) and checked in (the gateway).
export * from './api-key-format';
// The internal payout-batch steps between payouts and entries.
export * from './payout-marks';
// The providers' published clients for service-to-service calls, and their routes' bodies (docs/services.md).
export * from './clients';
// JSON pointers into the contract, for tests holding the code's limits to it.
export * from './pointer';
// The API's changelog (contracts/changelog.yaml) and the deprecation headers it dates.
export * from './changelog';
