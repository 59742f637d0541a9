import '@travel/platform/src/telemetry';
import { createLogger, runMain } from '@travel/platform';
import { startGateway } from './service';

runMain(() => startGateway(), createLogger('gateway'));
