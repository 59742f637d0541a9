import { startPlaceholderService, type StartOptions } from '@travel/platform';
import { DEFAULT_PORT, SERVICE } from './config';

export { DEFAULT_PORT, SERVICE } from './config';

/** Not built yet: the service runs and answers 501 NOT_IMPLEMENTED for the resources it owns. */
export const start = (env: NodeJS.ProcessEnv = process.env, options?: StartOptions) =>
  startPlaceholderService(SERVICE, DEFAULT_PORT, ['/api/v1/payouts'], env, options);
