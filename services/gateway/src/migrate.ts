// The gateway owns no data: its migrate job has nothing to do (kept so every service has the same job).
import { createLogger } from '@travel/platform';

createLogger('gateway').info('gateway: nothing to migrate');
