import mongoose, { type Connection } from 'mongoose';

// Every query of mongoose captured a stack trace (`new Error().stack`, costly with source maps) only to name
// where a query ran first in a "Query was already executed" error: not worth it on every read
// (docs/decisions/0093). Queries are `Connection`s of this mongoose, so the option is set on it.
mongoose.set('skipOriginalStackTraces', true);

// Each service owns one database, reached through its own connection (never mongoose's global one),
// so several services can share a process in tests without sharing models.
export async function connectMongo(url: string, dbName: string): Promise<Connection> {
  const conn = mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 10_000,
    // FerretDB and a standalone MongoDB have no retryable writes; a replica set does. Let the URL decide.
    autoIndex: false,
  });
  await conn.asPromise();
  return conn;
}

export async function pingMongo(conn: Connection): Promise<void> {
  if (conn.readyState !== 1 || !conn.db) throw new Error('not connected');
  await conn.db.admin().command({ ping: 1 });
}

/**
 * Creates the indexes the models declare. Called at boot and by the migrate job; explicit rather than
 * autoIndex so a failed index surfaces as a start-up error instead of a silent background failure.
 */
export async function ensureIndexes(conn: Connection): Promise<void> {
  for (const model of Object.values(conn.models)) await model.createIndexes();
}

export const isDuplicateKey = (err: unknown): boolean => (err as { code?: number })?.code === 11000;
