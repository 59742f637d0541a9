import '@travel/platform/src/telemetry';
import { createLogger, runMain } from '@travel/platform';
import { startEmployeesService, SERVICE } from './service';

runMain(() => startEmployeesService(), createLogger(SERVICE));
