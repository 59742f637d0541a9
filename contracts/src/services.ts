// The registry of services: the one list of what runs, on which port, owning which /api/v1 resources,
// and under which variable the others find it. The gateway's routing, scripts/build.ts, the local stack
// (scripts/stack.ts), the test stacks and the Helm chart check (scripts/chart-check.sh, through
// `npx tsx scripts/services.ts --json`) all read it; docs/services.md says how to add a service.

export interface ServiceEntry {
  /** Directory under services/, SERVICE_NAME, the chart's `services.<name>` key and component label. */
  readonly name: string;
  /** Default (and in-cluster) HTTP port of the API (and, for services, of `/internal`). */
  readonly port: number;
  /** Default (and in-cluster) port of `/healthz`, `/readyz` and `/metrics`: never the API's (decision 0097). */
  readonly opsPort: number;
  /** First path segments under /api/v1 that the gateway forwards to this service. */
  readonly resources: readonly string[];
}

export const SERVICES = [
  { name: 'gateway', port: 8080, opsPort: 9080, resources: [] },
  {
    name: 'employees',
    port: 8081,
    opsPort: 9081,
    resources: ['employees', 'departments', 'cost-centers', 'company', 'api-keys'],
  },
  {
    name: 'entries',
    port: 8082,
    opsPort: 9082,
    // `per-diems`: only the removed POST /api/v1/per-diems/calculate-simple, answered 410 Gone (decision 0058).
    resources: [
      'travel-entries',
      'approval-workflow',
      'utilities',
      'per-diems',
      'payroll-exports',
      'journal-exports',
      'journal-accounts',
      // Closed months: the write paths and the exports they bind are entries' (docs/decisions/0207).
      'accounting-periods',
      // The company's expense policy, judged on the entries' expenses (docs/decisions/0203).
      'expense-policy',
    ],
  },
  { name: 'fleet', port: 8083, opsPort: 9083, resources: ['vehicles'] },
  { name: 'payouts', port: 8084, opsPort: 9084, resources: ['payouts'] },
  // `per-diem-policy`: the company's per-diem policy, beside the statutory rates it is checked against (0127).
  { name: 'reference-fx', port: 8085, opsPort: 9085, resources: ['reference', 'per-diem-policy'] },
  { name: 'webhook-dispatcher', port: 8086, opsPort: 9086, resources: ['webhooks'] },
  // No /api/v1 resource: entries answers a reading from its projection of `receipts.reading.made` (0200).
  { name: 'receipts', port: 8087, opsPort: 9087, resources: [] },
] as const satisfies readonly ServiceEntry[];

export type ServiceName = (typeof SERVICES)[number]['name'];
/** The services behind the gateway (every one but the gateway itself). */
export type UpstreamName = Exclude<ServiceName, 'gateway'>;

export const SERVICE_NAMES: readonly ServiceName[] = SERVICES.map((s) => s.name);
export const UPSTREAM_NAMES: readonly UpstreamName[] = SERVICES.filter(
  (s): s is Extract<(typeof SERVICES)[number], { name: UpstreamName }> => s.name !== 'gateway',
).map((s) => s.name);

export function serviceEntry(name: ServiceName): ServiceEntry {
  return SERVICES.find((s) => s.name === name)!;
}

/** The variable holding a service's base URL for its callers: reference-fx -> REFERENCE_FX_URL. */
export const urlEnvOf = (name: ServiceName): string => `${name.toUpperCase().replace(/-/g, '_')}_URL`;

/** The registry entry of a service named by a plain string (a process's SERVICE_NAME); throws for an unknown one. */
export function registeredService(name: string): ServiceEntry {
  const entry = SERVICES.find((s) => s.name === name);
  if (!entry) throw new Error(`${name} is not in the registry of services (contracts/src/services.ts)`);
  return entry;
}

/** A service's base URL on this machine at its registry port (the local stack, the services' defaults). */
export const localUrlOf = (name: ServiceName, host = '127.0.0.1'): string =>
  `http://${host}:${serviceEntry(name).port}`;

/** `{ EMPLOYEES_URL: …, … }` for the services given (a stack wiring callers to what it started). */
export function urlEnv(urls: Partial<Record<UpstreamName, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, url] of Object.entries(urls)) if (url) env[urlEnvOf(name as UpstreamName)] = url;
  return env;
}

/** Which service owns each first path segment under /api/v1. */
export const RESOURCE_OWNERS: Readonly<Record<string, UpstreamName>> = Object.fromEntries(
  SERVICES.flatMap((s) => s.resources.map((r) => [r, s.name as UpstreamName])),
);
