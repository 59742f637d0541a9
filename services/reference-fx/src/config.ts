import { serviceConfig } from '@travel/platform';
import { fxConfigOf, fxEnv } from './fx-config';

export const SERVICE = 'reference-fx';
export const DEFAULT_PORT = 8085;

/** The shared settings plus the FX importer's (docs/configuration.md, "Reference-fx"). */
export const configSchema = serviceConfig(SERVICE, DEFAULT_PORT, fxEnv(), (v) => ({ fx: fxConfigOf(v) }));
