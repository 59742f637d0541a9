export { calculatePerDiems, toApiRow, MAX_MEALS_PER_ROW, MAX_TRIP_DAYS, type ApiRowOptions } from './engine';
export { PerDiemInputError } from './errors';
export { MARKET_PROFILES, type MarketProfile, type Partition } from './markets';
export * from './types';
