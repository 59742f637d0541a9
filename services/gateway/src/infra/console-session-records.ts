import type { KeyObject } from 'node:crypto';
import { ConsoleSessionsClient } from '@travel/contracts';
import { internalTransports } from '@travel/platform';
import type { ConsoleSessionRecords } from '../app/console-session-liveness';

/** The console's sessions as the employees service records them (its published client; 0193). */
export function consoleSessionRecords(employeesUrl: string, signingKey: KeyObject): ConsoleSessionRecords {
  return new ConsoleSessionsClient(internalTransports('gateway', signingKey)('employees', employeesUrl, 5000));
}
