import { localUrlOf, serviceEntry, urlEnvOf } from '@travel/contracts';
import { defineConfig, env, envSection, httpEnv } from '@travel/platform';
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
      env.string({
        default: localUrlOf(u),
        type: 'URL',
        description:
          u === 'employees'
            ? 'Base URL of the employees service, which owns API keys: the gateway resolves every key there, and its `/readyz` checks that this address accepts connections.'
            : `Base URL of ${u}; \`/api/v1/<resource>\` paths it owns are forwarded unchanged.`,
      }),
    ]),
  ) as Record<string, ReturnType<typeof env.string>>;

/** The gateway: the HTTP settings every process shares, rate limits, the key cache and the upstreams. */
export const configSchema = (() => {
  const shape = {
    ...httpEnv(DEFAULT_PORT, DEFAULT_OPS_PORT),
    ...envSection('gateway', {
      RATE_LIMIT_PER_MINUTE: env.int({
        default: 1200,
        min: 1,
        description:
          'Token bucket per API key: average requests a minute. The bucket is **per gateway replica**, so N replicas allow up to N × this.',
      }),
      RATE_LIMIT_BURST: env.int({
        default: 200,
        min: 1,
        description: 'Bucket size. Over the limit: `429 RATE_LIMITED` with `Retry-After`.',
      }),
      API_KEY_CACHE_MS: env.int({
        default: 5000,
        description:
          'How long a resolved key (tenant, permissions) is cached in each gateway replica, in ms; `0` looks the key up on every request. A revoked key, or changed permissions, take effect within this window. Unknown keys are cached 1 s (fixed).',
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
    rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
    rateLimitBurst: v.RATE_LIMIT_BURST,
    keyCacheMs: v.API_KEY_CACHE_MS,
    upstreams: Object.fromEntries(
      UPSTREAMS.map((u) => [u, (v as Record<string, unknown>)[upstreamVariable(u)] as string]),
    ) as Record<Upstream, string>,
  }));
})();
