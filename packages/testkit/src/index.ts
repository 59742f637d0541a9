export * from './api-client';
export * from './env';
export * from './receiver';
export * from './tls';
export * from './infra/infra';
export * from './processes';
export * from './events';
export * from './smtp-sink';
