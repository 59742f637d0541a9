import { serviceEntry } from '@travel/contracts';
import { serviceConfig } from '@travel/platform';

export const SERVICE = 'payouts';
export const DEFAULT_PORT = serviceEntry('payouts').port;

/** Payouts reads only the settings every service shares (docs/configuration.md). */
export const configSchema = serviceConfig(SERVICE, DEFAULT_PORT);
