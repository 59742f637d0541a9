import { localUrlOf, serviceEntry, urlEnvOf } from '@travel/contracts';
import { defineConfig, env, envSection, httpEnv, shutdownTimesOf } from '@travel/platform';
import { UPSTREAMS, type Upstream } from './domain/routes';

export const SERVICE = 'gateway';
export const DEFAULT_PORT = serviceEntry('gateway').port;
export const DEFAULT_OPS_PORT = serviceEntry('gateway').opsPort;

/** The upstream URL variable of a service (`reference-fx` → `REFERENCE_FX_URL`), from the registry. */
export const upstreamVariable = (upstream: Upstream) => urlEnvOf(upstream);

const upstreamEnv = () =>
  Object.fromEntries(
    UPSTREAMS.map((u) => [
      upstreamVariable(u),
      env.urls({
        default: localUrlOf(u),
        description:
          u === 'employees'
            ? 'Base URL of the employees service, which owns API keys: the gateway resolves every key there, and its `/readyz` checks that this address accepts connections.'
            : `Base URL of ${u}; \`/api/v1/<resource>\` paths it owns are forwarded unchanged.`,
      }),
    ]),
  ) as Record<string, ReturnType<typeof env.urls>>;

/** The gateway: the HTTP settings every process shares, rate limits, the key caches, failed authentications and the upstreams. */
export const configSchema = (() => {
  const shape = {
    ...httpEnv(DEFAULT_PORT, DEFAULT_OPS_PORT),
    ...envSection('gateway', {
      RATE_LIMIT_PER_MINUTE: env.int({
        default: 1200,
        min: 1,
        description:
          'Token bucket per API key: average requests a minute, **in total over the gateway replicas**: each takes this ÷ the live replicas counted through the broker (`AMQP_URL`, docs/decisions/0221). Without a broker each replica allows this alone.',
      }),
      RATE_LIMIT_BURST: env.int({
        default: 200,
        min: 1,
        description:
          'Bucket size, in total over the replicas like `RATE_LIMIT_PER_MINUTE` (each replica at least 1). Over the limit: `429 RATE_LIMITED` with `Retry-After`.',
      }),
      API_KEY_CACHE_MS: env.int({
        default: 5000,
        description:
          'How long a resolved key (tenant, permissions) is cached in each gateway replica, in ms; `0` looks the key up on every request. A revoked key, or changed permissions, take effect within this window. A key in use is looked up again in the background in the last fifth of the window, so its requests do not wait for the lookup. Unknown keys are cached 1 s (fixed). The same window bounds how long a replica trusts a live console session: a sign-out on another replica ends a copied cookie here within it (docs/decisions/0193).',
      }),
      API_KEY_CACHE_SIZE: env.int({
        default: 50_000,
        min: 1,
        description:
          'Valid keys each replica keeps cached at most; past it, the least recently used is forgotten (and looked up again when it returns). Unknown keys never take room here (docs/decisions/0116).',
      }),
      UNKNOWN_KEY_CACHE_SIZE: env.int({
        default: 10_000,
        min: 1,
        description:
          "Unknown (or revoked) keys each replica remembers for 1 s at most, in a cache of their own: a flood of random keys fills only this one, never the valid keys' cache.",
      }),
      API_KEY_LOOKUPS_AT_ONCE: env.int({
        default: 8,
        min: 1,
        description:
          'Key lookups each replica sends to the employees service at once; the others wait (at most 10,000, then `503`), new keys from addresses with recent failures last (docs/decisions/0116).',
      }),
      SUSPECT_KEY_LOOKUPS_PER_SECOND: env.int({
        default: 50,
        min: 1,
        description:
          'Lookups a second, in total over the replicas (each takes its share, docs/decisions/0221), of keys never seen that come from addresses with recent failures (each within its own `AUTH_FAILURE_*` limit); they wait behind every other lookup, and beyond this pace such a request gets `429 RATE_LIMITED` with `Retry-After: 1` rather than waiting. A flood from many addresses then reaches the employees service at this pace, whatever the number of addresses; valid keys and clean addresses are not paced.',
      }),
      AUTH_FAILURES_PER_MINUTE: env.int({
        default: 30,
        min: 1,
        description:
          'Token bucket per client address for **failed** authentications: key lookups that found no key (unknown or revoked), average a minute. Malformed keys are refused before, without a lookup; valid keys and cached answers cost nothing. An address over the limit gets `429 RATE_LIMITED` with `Retry-After` for every request with a key, before any lookup (docs/decisions/0115). In total over the replicas, each taking its share (docs/decisions/0221). IPv6 addresses count by their /64.',
      }),
      AUTH_FAILURE_BURST: env.int({
        default: 20,
        min: 1,
        description:
          'Failed authentications an address may make in a row before the limit applies (the bucket size), in total over the replicas (each at least 1).',
      }),
      AUTH_FAILURE_ADDRESSES: env.int({
        default: 10_000,
        min: 1,
        description:
          'Addresses with recent failures each replica tracks at most; past it, the least recently failing is forgotten (memory stays bounded whatever the number of addresses).',
      }),
      TRUSTED_PROXY_HOPS: env.int({
        default: 0,
        min: 0,
        max: 10,
        description:
          "Proxies in front of the gateway that append the client's address to `X-Forwarded-For` (an ingress: `1`). `0`: the client is the socket's peer and `X-Forwarded-For` is ignored. **Behind an ingress with `0`, every client shares the ingress's address**, so one client sending unknown keys gets all of them limited; never set more hops than there are proxies, or clients choose their own address.",
      }),
      AMQP_URL: env.optional({
        type: 'URL',
        description:
          'RabbitMQ, through which the gateway replicas count each other (consumers of the `gateway.presence` queue) so that the per-key and per-address limits above hold in total over them (docs/decisions/0221); nothing on the request path goes through it. Unset or empty: each replica applies the figures alone (N replicas allow up to N × each). While the broker is unreachable a replica keeps its last count.',
      }),
      LIMITS_REPLICA_CHECK_MS: env.int({
        default: 1000,
        min: 100,
        max: 10_000,
        description:
          'How often a gateway replica counts the live replicas for its share of the limits: a replica that joins or leaves changes the others’ shares within this time.',
      }),
      ...upstreamEnv(),
    }),
  };
  return defineConfig(SERVICE, shape, (v) => ({
    port: v.PORT,
    opsPort: v.OPS_PORT,
    host: v.HOST,
    /** The gateway's own private key: it alone signs caller contexts (docs/decisions/0100). */
    signingKey: v.INTERNAL_SIGNING_KEY!,
    logLevel: v.LOG_LEVEL,
    shutdown: shutdownTimesOf(v),
    rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
    rateLimitBurst: v.RATE_LIMIT_BURST,
    keyCacheMs: v.API_KEY_CACHE_MS,
    keyCacheSize: v.API_KEY_CACHE_SIZE,
    unknownKeyCacheSize: v.UNKNOWN_KEY_CACHE_SIZE,
    keyLookupsAtOnce: v.API_KEY_LOOKUPS_AT_ONCE,
    suspectKeyLookupsPerSecond: v.SUSPECT_KEY_LOOKUPS_PER_SECOND,
    authFailuresPerMinute: v.AUTH_FAILURES_PER_MINUTE,
    authFailureBurst: v.AUTH_FAILURE_BURST,
    authFailureAddresses: v.AUTH_FAILURE_ADDRESSES,
    trustedProxyHops: v.TRUSTED_PROXY_HOPS,
    /** The broker the replicas count each other through, for their shares of the limits (0221). */
    amqpUrl: v.AMQP_URL || undefined,
    replicaCheckMs: v.LIMITS_REPLICA_CHECK_MS,
    upstreams: Object.fromEntries(
      UPSTREAMS.map((u) => [u, (v as Record<string, unknown>)[upstreamVariable(u)] as string]),
    ) as Record<Upstream, string>,
  }));
})();
