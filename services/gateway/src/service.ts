import type { AddressInfo } from 'node:net';
import {
  AmqpClient,
  GracefulStop,
  Metrics,
  ReplicaCount,
  closeServer,
  createLogger,
  createOpsApp,
  listenApiAndOps,
  parseConfig,
  type Logger,
} from '@travel/platform';
import { RateLimiter } from './domain/rate-limit';
import { configSchema, SERVICE } from './config';
import { createGatewayApp } from './http/app';
import { KeyResolver } from './infra/key-resolver';
import { acceptsConnections } from './infra/reachable';

export const readGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export async function start(env: NodeJS.ProcessEnv = process.env, logger?: Logger) {
  const config = readGatewayConfig(env);
  const log = logger ?? createLogger('gateway', config.logLevel);
  const metrics = new Metrics('gateway');
  // The limits hold in total: each replica takes its share, the replicas counted through the broker, off
  // the request path (docs/decisions/0221). Not awaited: without the broker a replica counts itself alone.
  const amqp = config.amqpUrl ? new AmqpClient(config.amqpUrl, log, 'gateway') : undefined;
  const count =
    amqp && new ReplicaCount({ client: amqp, service: SERVICE, checkEveryMs: config.replicaCheckMs, logger: log });
  const replicas = () => count?.count ?? 1;
  if (amqp && count) {
    await count.start();
    void amqp.start();
  } else log.warn('no AMQP_URL: the rate limits apply per gateway replica');
  const app = createGatewayApp({
    logger: log,
    metrics,
    resolver: new KeyResolver(config.upstreams.employees, config.signingKey, config.keyCacheMs, undefined, {
      known: config.keyCacheSize,
      unknown: config.unknownKeyCacheSize,
      lookups: config.keyLookupsAtOnce,
      suspectLookupsPerSecond: config.suspectKeyLookupsPerSecond,
      replicas,
    }),
    upstreams: config.upstreams,
    signingKey: config.signingKey,
    limiter: new RateLimiter(config.rateLimitPerMinute, config.rateLimitBurst, undefined, undefined, replicas),
    authFailures: new RateLimiter(
      config.authFailuresPerMinute,
      config.authFailureBurst,
      undefined,
      config.authFailureAddresses,
      replicas,
    ),
    trustedProxyHops: config.trustedProxyHops,
    // A sign-out reaches the other replicas within the key cache's window (0193).
    consoleSessionCacheMs: config.keyCacheMs,
  });
  const graceful = new GracefulStop(config.shutdown);
  const ops = createOpsApp({
    logger: log,
    metrics,
    readiness: {
      employees: () => acceptsConnections(config.upstreams.employees),
      shutdown: graceful.readiness,
    },
  });
  const { server, opsServer } = await listenApiAndOps(app, ops, config);
  const { port } = server.address() as AddressInfo;
  const { port: opsPort } = opsServer.address() as AddressInfo;
  log.info({ port, opsPort }, 'gateway listening');
  return {
    name: 'gateway',
    url: `http://${config.host}:${port}`,
    opsUrl: `http://${config.host}:${opsPort}`,
    stop: async () => {
      // Readiness fails first, requests in flight finish, /readyz answers 503 to the end (0216); the
      // replica leaves the limits' count only then, so the others do not take its share while it serves.
      await graceful.closeApi(server);
      count?.stop();
      await amqp?.stop();
      await closeServer(opsServer);
    },
  };
}
