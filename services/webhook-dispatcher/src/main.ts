import '@travel/platform/src/telemetry';
import { createLogger, runMain } from '@travel/platform';
import { SERVICE, startDispatcher } from './service';

runMain(() => startDispatcher(), createLogger(SERVICE));
