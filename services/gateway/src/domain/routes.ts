// Which bounded context owns which /api/v1 resource (the registry of services, contracts/src/services.ts).
// The gateway forwards the path unchanged.
import { RESOURCE_OWNERS, UPSTREAM_NAMES, type UpstreamName } from '@travel/contracts';

export type Upstream = UpstreamName;

export const UPSTREAMS: readonly Upstream[] = UPSTREAM_NAMES;

/** The owning service of an /api/v1 path, or undefined for an unknown resource. */
export function ownerOf(path: string): Upstream | undefined {
  const match = /^\/api\/v1\/([^/?#]+)/.exec(path);
  return match && Object.hasOwn(RESOURCE_OWNERS, match[1]!) ? RESOURCE_OWNERS[match[1]!] : undefined;
}
