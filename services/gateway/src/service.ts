import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metrics, createLogger, parseConfig, type Logger } from '@travel/platform';
import { RateLimiter } from './domain/rate-limit';
import { configSchema } from './config';
import { createGatewayApp } from './http/app';
import { KeyResolver } from './infra/key-resolver';

export const readGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export async function startGateway(env: NodeJS.ProcessEnv = process.env, logger?: Logger) {
  const config = readGatewayConfig(env);
  const log = logger ?? createLogger('gateway', config.logLevel);
  const app = createGatewayApp({
    logger: log,
    metrics: new Metrics('gateway'),
    resolver: new KeyResolver(config.upstreams.employees, config.contextSecret, config.keyCacheMs, undefined, {
      known: config.keyCacheSize,
      unknown: config.unknownKeyCacheSize,
      lookups: config.keyLookupsAtOnce,
      suspectLookupsPerSecond: config.suspectKeyLookupsPerSecond,
    }),
    upstreams: config.upstreams,
    contextSecret: config.contextSecret,
    limiter: new RateLimiter(config.rateLimitPerMinute, config.rateLimitBurst),
    authFailures: new RateLimiter(
      config.authFailuresPerMinute,
      config.authFailureBurst,
      undefined,
      config.authFailureAddresses,
    ),
    trustedProxyHops: config.trustedProxyHops,
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
