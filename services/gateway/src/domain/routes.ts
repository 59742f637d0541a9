// Which bounded context owns which /api/v1 resource (the registry of services, contracts/src/services.ts).
// Every function here reads a canonical path (platform's canonicalTarget): the gateway forwards exactly
// the path it routed with.
import { RESOURCE_OWNERS, UPSTREAM_NAMES, type UpstreamName } from '@travel/contracts';

export type Upstream = UpstreamName;

export const UPSTREAMS: readonly Upstream[] = UPSTREAM_NAMES;

/** The owning service of an /api/v1 path, or undefined for an unknown resource. */
export function ownerOf(path: string): Upstream | undefined {
  const match = /^\/api\/v1\/([^/?#]+)/.exec(path);
  return match && Object.hasOwn(RESOURCE_OWNERS, match[1]!) ? RESOURCE_OWNERS[match[1]!] : undefined;
}

/** Only `/api/v1/…`, in exactly this case, is forwarded. */
export const isApiPath = (path: string): boolean => path.startsWith('/api/v1/');

/**
 * Each process's /metrics, /readyz and /healthz (its ops port) and the services' /internal routes, in
 * any case: refused by name, so no spelling of them is ever served or forwarded by the gateway.
 */
export const isOperationalPath = (path: string): boolean => /^\/(metrics|readyz|healthz|internal)(\/|$)/i.test(path);
