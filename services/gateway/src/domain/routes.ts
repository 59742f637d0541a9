// Which bounded context owns which /api/v1 resource. The gateway forwards the path unchanged.
export type Upstream = 'employees' | 'entries' | 'fleet' | 'payouts' | 'reference-fx' | 'webhook-dispatcher';

export const UPSTREAMS: readonly Upstream[] = [
  'employees',
  'entries',
  'fleet',
  'payouts',
  'reference-fx',
  'webhook-dispatcher',
];

const OWNERS: Record<string, Upstream> = {
  employees: 'employees',
  departments: 'employees',
  'cost-centers': 'employees',
  company: 'employees',
  'api-keys': 'employees',
  'travel-entries': 'entries',
  'approval-workflow': 'entries',
  utilities: 'entries',
  // Only the removed POST /api/v1/per-diems/calculate-simple lives here: entries answers it 410 Gone.
  'per-diems': 'entries',
  vehicles: 'fleet',
  payouts: 'payouts',
  reference: 'reference-fx',
  webhooks: 'webhook-dispatcher',
};

/** The owning service of an /api/v1 path, or undefined for an unknown resource. */
export function ownerOf(path: string): Upstream | undefined {
  const match = /^\/api\/v1\/([^/?#]+)/.exec(path);
  return match ? OWNERS[match[1]!] : undefined;
}
