// The migrate job (Helm pre-install/pre-upgrade hook): data migrations, then indexes, then exit.
import { createLogger, runMigrate } from '@travel/platform';
import { SERVICE, start } from './service';

runMigrate(() => start(process.env, { migrateOnly: true }), createLogger(SERVICE));
