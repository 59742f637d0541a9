import { startPlaceholderService, type StartOptions } from '@travel/platform';

export const SERVICE = 'reference-fx';
export const DEFAULT_PORT = 8085;

/** Not built yet: the service runs and answers 501 NOT_IMPLEMENTED for the resources it owns. */
export const start = (env: NodeJS.ProcessEnv = process.env, options?: StartOptions) =>
  startPlaceholderService(SERVICE, DEFAULT_PORT, ['/api/v1/reference'], env, options);
