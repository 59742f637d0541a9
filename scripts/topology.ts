// The RabbitMQ definitions of the chart are rendered from the topology the services declare at boot
// (packages/platform/src/messaging/topology.ts), with the default settings (the spec's webhook retry
// schedule, the default consumer back-off). Nothing here lists queues or services: every service of the
// registry (contracts/src/services.ts) that consumes exports `topology` from its src/infra/topology.ts,
// built from the consumers it declares there once (decision 0177).
//   npm run topology:generate   rewrites charts/travel-expense/files/rabbitmq-topology.json
//   npm run topology:check      fails when it is stale (part of `npm test`)
// The chart's template adds the vhost and the `rabbitmq.definitions.extra*` values (templates/rabbitmq-definitions.yaml).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES } from '../contracts/src/services';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../packages/platform/src/messaging/retry';
import {
  domainTopology,
  mergeTopologies,
  rabbitDefinitions,
  type Topology,
} from '../packages/platform/src/messaging/topology';

const ROOT = join(__dirname, '..');
const FILE = join(ROOT, 'charts', 'travel-expense', 'files', 'rabbitmq-topology.json');

/** What a consuming service's src/infra/topology.ts exports (its other settings take their defaults). */
interface ServiceTopologyModule {
  topology: (policy: RetryPolicy) => Topology;
}

/** Each service's own part, in the registry's order: those with a src/infra/topology.ts consume. */
export function serviceTopologies(
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): { service: string; topology: Topology }[] {
  return SERVICE_NAMES.map((service) => join(ROOT, 'services', service, 'src', 'infra', 'topology.ts'))
    .map((file, i) => ({ service: SERVICE_NAMES[i]!, file }))
    .filter(({ file }) => existsSync(file))
    .map(({ service, file }) => ({
      service,
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      topology: (require(file) as ServiceTopologyModule).topology(policy),
    }));
}

/** Everything the deployment's services declare with the default settings. */
export const deploymentTopology = () =>
  mergeTopologies(
    // Every service publishes to domain.events and declares it (platform/src/service.ts).
    domainTopology(),
    ...serviceTopologies().map((s) => s.topology),
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
