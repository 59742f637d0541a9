import '@travel/platform/src/telemetry';
import { createLogger, runMain } from '@travel/platform';
import { start, SERVICE } from './service';

runMain(() => start(), createLogger(SERVICE));
