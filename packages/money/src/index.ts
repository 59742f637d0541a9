export * from './currencies';
export * from './decimal';
export * from './money';
export * from './rounding';
export * from './wire';
export * from './limits';
export * from './bank-ids';
