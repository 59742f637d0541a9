const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value has the shape of the records' ids (UUIDs); anything else names no record. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
