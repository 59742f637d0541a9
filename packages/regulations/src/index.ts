export * from './types';
export * from './lookup';
export * from './rows';
export * from './countries';
export * from './enabled-defaults';
