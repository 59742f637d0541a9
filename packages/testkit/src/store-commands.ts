import type { Connection } from 'mongoose';
import { connectMongo } from '@travel/platform';
import { testInfra } from './env';

/** A connection to one database of the test store, as a replica has, and what it sent there in order. */
export interface MonitoredConnection<T = string> {
  conn: Connection;
  /** What `describe` made of each command, in the order sent (nothing for a command it answered [] to). */
  commands: T[];
}

/**
 * Connects to `db` on the test store with the driver's command monitoring on, for tests that assert which
 * store commands a piece of code sends (how many, in what order). Only commands to `db` are kept.
 */
export async function monitoredConnection<T = string>(
  db: string,
  describe: (name: string, command: Record<string, unknown>) => T[],
): Promise<MonitoredConnection<T>> {
  const url = new URL(testInfra().mongoUrl);
  url.searchParams.set('monitorCommands', 'true');
  const conn = await connectMongo(url.toString(), db);
  const commands: T[] = [];
  conn.getClient().on('commandStarted', (e) => {
    if (e.databaseName === db) commands.push(...describe(e.commandName, e.command));
  });
  return { conn, commands };
}
