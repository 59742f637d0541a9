import '@travel/platform/src/telemetry';
import { createLogger, runMain } from '@travel/platform';
import { SERVICE, start } from './service';

runMain(() => start(), createLogger(SERVICE));
