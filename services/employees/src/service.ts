import {
  apiRouter,
  ConditionalGets,
  parseConfig,
  startPeriodicJob,
  startService,
  type StartOptions,
} from '@travel/platform';
import { ApiKeysApp } from './app/api-keys';
import { ConsoleSessionsApp } from './app/console-sessions';
import { DelegationsApp } from './app/delegations';
import { EmployeesApp } from './app/employees';
import { CostCentersApp, DepartmentsApp } from './app/org';
import { consoleSessionRoutes } from './http/console-sessions';
import { delegationRoutes } from './http/delegation-routes';
import { internalRoutes } from './http/internal';
import { publicRoutes } from './http/routes';
import { startAllowListConsumer } from './infra/allow-list-consumer';
import { ConsoleSessionStore } from './infra/console-sessions';
import { EMPLOYEES_COLLECTION, employeesRepositories } from './infra/repositories';

import { configSchema } from './config';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export function start(env: NodeJS.ProcessEnv = process.env, options?: StartOptions) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics, jobs }) => {
      const repos = employeesRepositories(mongo);
      // The gateway's console sessions, so a sign-out ends a copied cookie too (0193).
      const consoleSessions = new ConsoleSessionsApp(new ConsoleSessionStore(mongo));
      let stopSessionPurge: () => Promise<void> = async () => undefined;
      // Every GET answers from the collections' versions (0155, 0157); one it answered before, before express (0182).
      const reads = new ConditionalGets(repos.versions);
      const api = publicRoutes({
        repos,
        reads,
        employees: new EmployeesApp(repos),
        departments: new DepartmentsApp(repos),
        costCenters: new CostCentersApp(repos),
        apiKeys: new ApiKeysApp(repos),
      });
      // Approvers' delegations (0205): public for the approver and admins, internal for entries' decisions.
      const delegations = new DelegationsApp(repos);
      api.use(delegationRoutes(delegations, reads, repos));
      return {
        api,
        reads,
        internal: apiRouter().use(internalRoutes(repos, delegations), consoleSessionRoutes(consoleSessions)),
        outboxCollections: [EMPLOYEES_COLLECTION],
        // Runs before the indexes are created: the unique e-mail index needs every document's emailKey.
        migrate: async () => {
          await repos.migrate();
        },
        // The profile's enabled countries and currencies follow reference-fx's allow-lists (0184).
        start: async () => {
          await startAllowListConsumer({ client: amqp, mongo, logger, metrics, repos });
          stopSessionPurge = startPeriodicJob(consoleSessions.purgeJob(), jobs);
        },
        stop: async () => stopSessionPurge(),
      };
    },
    options,
  );
}
