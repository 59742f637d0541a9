import { serviceConfig } from '@travel/platform';

export const SERVICE = 'employees';
export const DEFAULT_PORT = 8081;

/** The employees service reads only the settings every service shares (docs/configuration.md). */
export const configSchema = serviceConfig(SERVICE, DEFAULT_PORT);
