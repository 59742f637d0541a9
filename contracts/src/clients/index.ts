// The providers' published clients: one per service that answers others' `/internal` calls, over the
// caller's InternalTransport (docs/services.md, "Calls between services"). A service takes another's
// client from here, never from that service's source (lint: eslint.config.mjs).
export * from './transport';
export * from './employees';
export * from './console-sessions';
export * from './entries';
export * from './fleet';
export * from './reference-fx';
