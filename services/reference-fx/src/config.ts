import { serviceEntry } from '@travel/contracts';
import { serviceConfig } from '@travel/platform';
import { fxConfigOf, fxEnv } from './fx-config';

export const SERVICE = 'reference-fx';
export const DEFAULT_PORT = serviceEntry('reference-fx').port;

/** The shared settings plus the FX importer's (docs/configuration.md, "Reference-fx"). */
export const configSchema = serviceConfig(SERVICE, DEFAULT_PORT, fxEnv(), (v) => ({ fx: fxConfigOf(v) }));
