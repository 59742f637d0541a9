import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localUrlOf, serviceEntry, urlEnvOf } from '@travel/contracts';
import { EnvReader, Metrics, createLogger, type Logger } from '@travel/platform';
import { RateLimiter } from './domain/rate-limit';
import { UPSTREAMS, type Upstream } from './domain/routes';
import { createGatewayApp } from './http/app';
import { KeyResolver } from './infra/key-resolver';

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env) {
  const r = new EnvReader(env);
  const upstreams = Object.fromEntries(UPSTREAMS.map((u) => [u, r.string(urlEnvOf(u), localUrlOf(u))])) as Record<
    Upstream,
    string
  >;
  const config = {
    port: r.int('PORT', serviceEntry('gateway').port, { max: 65535 }),
    host: r.string('HOST', '127.0.0.1'),
    contextSecret: r.string('INTERNAL_CONTEXT_SECRET'),
    logLevel: r.string('LOG_LEVEL', 'info'),
    rateLimitPerMinute: r.int('RATE_LIMIT_PER_MINUTE', 1200, { min: 1 }),
    rateLimitBurst: r.int('RATE_LIMIT_BURST', 200, { min: 1 }),
    keyCacheMs: r.int('API_KEY_CACHE_MS', 5000),
    upstreams,
  };
  r.done();
  return config;
}

export async function startGateway(env: NodeJS.ProcessEnv = process.env, logger?: Logger) {
  const config = readGatewayConfig(env);
  const log = logger ?? createLogger('gateway', config.logLevel);
  const app = createGatewayApp({
    logger: log,
    metrics: new Metrics('gateway'),
    resolver: new KeyResolver(config.upstreams.employees, config.contextSecret, config.keyCacheMs),
    upstreams: config.upstreams,
    contextSecret: config.contextSecret,
    limiter: new RateLimiter(config.rateLimitPerMinute, config.rateLimitBurst),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  log.info({ port }, 'gateway listening');
  return {
    name: 'gateway',
    url: `http://${config.host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
