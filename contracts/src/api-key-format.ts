// The public form of an API key, written once for the service that issues keys (employees) and the one that
// checks them first (the gateway refuses anything else before a lookup: docs/decisions/0115).

export const API_KEY_PREFIX = 'tek_';
/** Random bytes behind the prefix: 256 bits, written as 43 base64url characters. */
export const API_KEY_RANDOM_BYTES = 32;

const WELL_FORMED = /^tek_[A-Za-z0-9_-]{43}$/;

/** Exactly the form keys are issued in: the prefix, then 43 base64url characters. */
export const isWellFormedApiKey = (key: string): boolean => WELL_FORMED.test(key);
