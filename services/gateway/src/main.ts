import '@travel/platform/src/telemetry';
import { createLogger, runMain } from '@travel/platform';
import { start } from './service';

runMain(() => start(), createLogger('gateway'));
