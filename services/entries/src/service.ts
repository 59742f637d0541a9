import { startPlaceholderService, type StartOptions } from '@travel/platform';

export const SERVICE = 'entries';
export const DEFAULT_PORT = 8082;

/** Not built yet: the service runs and answers 501 NOT_IMPLEMENTED for the resources it owns. */
export const start = (env: NodeJS.ProcessEnv = process.env, options?: StartOptions) =>
  startPlaceholderService(
    SERVICE,
    DEFAULT_PORT,
    ['/api/v1/travel-entries', '/api/v1/approval-workflow', '/api/v1/utilities'],
    env,
    options,
  );
