// The ids the console puts into API paths and its own addresses. The services issue UUIDs for
// subscriptions and deliveries; anything else in an address is "not found" before any request is made,
// so a crafted link cannot make the page call another path (docs/decisions/0193).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Thrown for an address that names no subscription or delivery: the page shows "not found". */
export class NotFound extends Error {
  constructor() {
    super('Not found: this address names no subscription or delivery.');
    this.notFound = true;
  }
}

/** Whether a value looks like an id the services issue. */
export const isId = (value) => typeof value === 'string' && UUID.test(value);

/** An id as one path segment: encoded, and only when it is an id (NotFound otherwise). */
export function seg(id) {
  if (!isId(id)) throw new NotFound();
  return encodeURIComponent(id);
}
