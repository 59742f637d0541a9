// The RabbitMQ definitions of the chart are rendered from the topology description the services declare
// at boot (packages/platform/src/messaging/topology.ts and each consuming service's part), with the
// default settings (the spec's webhook retry schedule, the default consumer back-off).
//   npm run topology:generate   rewrites charts/travel-expense/files/rabbitmq-topology.json
//   npm run topology:check      fails when it is stale (part of `npm test`)
// The chart's template adds the vhost and the `rabbitmq.definitions.extra*` values (templates/rabbitmq-definitions.yaml).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RETRY_POLICY } from '../packages/platform/src/messaging/retry';
import { domainTopology, mergeTopologies, rabbitDefinitions } from '../packages/platform/src/messaging/topology';
import { entriesTopology } from '../services/entries/src/infra/topology';
import { fleetTopology } from '../services/fleet/src/infra/topology';
import { payoutsTopology } from '../services/payouts/src/infra/topology';
import { SPEC_SCHEDULE, parseSchedule } from '../services/webhook-dispatcher/src/domain/schedule';
import { dispatcherTopology } from '../services/webhook-dispatcher/src/infra/queues';

const FILE = join(__dirname, '..', 'charts', 'travel-expense', 'files', 'rabbitmq-topology.json');

/** Everything the deployment's services declare with the default settings. */
export const deploymentTopology = () =>
  mergeTopologies(
    // Every service publishes to domain.events and declares it (platform/src/service.ts).
    domainTopology(),
    entriesTopology(DEFAULT_RETRY_POLICY),
    fleetTopology(DEFAULT_RETRY_POLICY),
    payoutsTopology(DEFAULT_RETRY_POLICY),
    dispatcherTopology(parseSchedule(SPEC_SCHEDULE), DEFAULT_RETRY_POLICY),
  );

export const renderTopology = () => `${JSON.stringify(rabbitDefinitions(deploymentTopology()), null, 2)}\n`;

if (require.main === module) {
  const next = renderTopology();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(FILE, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== next) {
      console.error('charts/travel-expense/files/rabbitmq-topology.json is stale: run npm run topology:generate');
      process.exit(1);
    }
  } else writeFileSync(FILE, next);
}
