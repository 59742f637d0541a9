import { serviceEntry } from '@travel/contracts';
import { serviceConfig } from '@travel/platform';

export const SERVICE = 'employees';
export const DEFAULT_PORT = serviceEntry('employees').port;

/** The employees service reads only the settings every service shares (docs/configuration.md). */
export const configSchema = serviceConfig(SERVICE, DEFAULT_PORT);
