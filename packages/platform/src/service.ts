import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Router } from 'express';
import type { Connection } from 'mongoose';
import type { BaseConfig } from './config/shared-settings';
import { createHttpListener, createOpsApp, listenApiAndOps, type ReadinessCheck } from './http/app';
import { closeServer } from './http/drain';
import { GracefulStop } from './http/graceful-stop';
import type { ConditionalGets } from './http/conditional-read';
import { createLogger, type Logger } from './logger';
import { AmqpClient } from './messaging/amqp-client';
import { stopConsumers } from './messaging/consumer';
import { OutboxRelay } from './messaging/outbox-relay';
import { relayOutboxWrites } from './messaging/outbox-nudge';
import { Inbox } from './messaging/inbox';
import { declareDomainExchange } from './messaging/topology';
import { connectMongo, ensureIndexes, pingMongo } from './mongo/connection';
import { IdempotencyStore } from './mongo/idempotency-store';
import { SealedBox } from './sealed-box';
import { startPeriodicJob, type JobScheduling, type PeriodicJob } from './periodic-job';
import { JobLeases } from './mongo/job-leases';
import { SHOWN_ONCE_SEAL_LABEL } from './http/idempotency';
import { Metrics } from './observability/metrics';

export interface ServiceDeps {
  config: BaseConfig;
  logger: Logger;
  metrics: Metrics;
  mongo: Connection;
  amqp: AmqpClient;
  /** For `startPeriodicJob`: the service's job leases, so a job runs once per period across replicas (0218). */
  jobs: JobScheduling;
}

export interface ServiceParts {
  api?: Router;
  /** The conditional GETs `api` answers with: the GETs they answered before skip the router (0182). */
  reads?: ConditionalGets;
  internal?: Router;
  /** Resource prefixes owned but not built yet (501 NOT_IMPLEMENTED). */
  notImplemented?: string[];
  /** Collections whose documents carry an outbox. */
  outboxCollections?: string[];
  readiness?: Record<string, ReadinessCheck>;
  /** Bounds of multipart uploads (default 10 MiB per file, 10 files per request; beyond: 413). */
  upload?: { maxFileBytes?: number; maxFiles?: number };
  /** Data migrations, run before indexes are created: at every boot and by the migrate job. Idempotent. */
  migrate?: () => Promise<void>;
  /** Background work (consumers, jobs) started after the HTTP server listens. */
  start?: () => Promise<void>;
  stop?: () => Promise<void>;
}

export interface RunningService {
  name: string;
  /** The API (and /internal). */
  url: string;
  /** /healthz, /readyz and /metrics (empty after a migrate-only run). */
  opsUrl: string;
  deps: ServiceDeps;
  relay?: OutboxRelay;
  /** Absent after a migrate-only run. */
  server?: Server;
  opsServer?: Server;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** Run migrations and create indexes, then close: what `dist/migrate.js` (the Helm hook job) does. */
  migrateOnly?: boolean;
  logger?: Logger;
}

export async function startService(
  config: BaseConfig,
  build: (deps: ServiceDeps) => Promise<ServiceParts> | ServiceParts,
  options: StartOptions = {},
): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.serviceName, config.logLevel);
  const metrics = new Metrics(config.serviceName);
  const mongo = await connectMongo(config.mongoUrl, config.mongoDbName);
  const amqp = new AmqpClient(config.amqpUrl, logger, config.serviceName);
  if (!options.migrateOnly) await amqp.start();

  let relay: OutboxRelay | undefined;
  // A write with events through this connection nudges this service's relay (TenantScope.commit, 0170).
  const forgetRelay = relayOutboxWrites(mongo, (written) => relay?.nudge(written));
  // Every publisher declares the exchange it publishes to, so no start order between services matters.
  await amqp.onConnect(declareDomainExchange);
  const jobs: JobScheduling = { leases: new JobLeases(mongo), leaseMs: config.jobLeaseMs, logger, metrics };
  const deps: ServiceDeps = { config, logger, metrics, mongo, amqp, jobs };
  const parts = await build(deps);
  // Every service's POSTs take an Idempotency-Key, kept in its own database (docs/decisions/0195).
  const idempotency = new IdempotencyStore(mongo);
  await parts.migrate?.();
  await ensureIndexes(mongo);
  if (options.migrateOnly) {
    await mongo.close();
    logger.info('migrations and indexes done');
    return { name: config.serviceName, url: '', opsUrl: '', deps, stop: async () => undefined };
  }

  if (parts.outboxCollections?.length) {
    relay = new OutboxRelay({
      client: amqp,
      collections: parts.outboxCollections.map((name) => mongo.db!.collection(name)),
      logger,
      metrics,
    });
  }

  let backgroundStarted = false;
  const graceful = new GracefulStop(config.shutdown);
  const app = createHttpListener({
    logger,
    metrics,
    api: parts.api,
    reads: parts.reads,
    idempotency,
    idempotentAnswerSeal: new SealedBox(config.signingKey, SHOWN_ONCE_SEAL_LABEL),
    internal: parts.internal,
    notImplemented: parts.notImplemented,
    upload: parts.upload,
    validateResponses: config.validateResponses,
    contextTrust: { audience: config.serviceName, keyring: config.trustedKeys },
  });
  const ops = createOpsApp({
    logger,
    metrics,
    readiness: {
      mongo: () => pingMongo(mongo),
      amqp: async () => {
        if (!amqp.connected) throw new Error('not connected');
      },
      // Ready only once consumers and jobs run, so traffic (and a rollout's next step) waits for them.
      startup: async () => {
        if (!backgroundStarted) throw new Error('starting');
      },
      shutdown: graceful.readiness,
      ...parts.readiness,
    },
  });
  const { server, opsServer } = await listenApiAndOps(app, ops, config);
  const { port } = server.address() as AddressInfo;
  const { port: opsPort } = opsServer.address() as AddressInfo;
  relay?.start();
  const stopHousekeeping = housekeepingJobs(new Inbox(mongo), idempotency).map((job) => startPeriodicJob(job, jobs));
  await parts.start?.();
  backgroundStarted = true;
  logger.info({ port, opsPort }, `${config.serviceName} listening`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // docs/decisions/0216: readiness fails first; requests, handlers and jobs in flight finish while
      // consumers take no new work; the relay publishes what they wrote; /readyz answers 503 to the end.
      await Promise.all([
        graceful.closeApi(server),
        stopConsumers(amqp, config.shutdown.drainTimeoutMs),
        ...stopHousekeeping.map((stopJob) => stopJob()),
      ]);
      await parts.stop?.();
      await relay?.stop();
      await closeServer(opsServer);
      forgetRelay();
      await amqp.stop();
      await mongo.close();
    })());

  return {
    name: config.serviceName,
    url: `http://${config.host}:${port}`,
    opsUrl: `http://${config.host}:${opsPort}`,
    deps,
    relay,
    server,
    opsServer,
    stop,
  };
}

/** Processed-event ids are kept 7 days (far beyond any redelivery), purged hourly: FerretDB has no TTL index. */
export const INBOX_RETENTION_DAYS = 7;
const HOUR_MS = 3_600_000;

/** The store housekeeping every service does: deletes by date, once per hour across the replicas. */
function housekeepingJobs(inbox: Inbox, idempotency: IdempotencyStore): PeriodicJob[] {
  return [
    {
      name: 'inbox retention purge',
      everyMs: HOUR_MS,
      run: () => inbox.purgeOlderThan(new Date(Date.now() - INBOX_RETENTION_DAYS * 86_400_000)),
    },
    // Expired Idempotency-Keys (a TTL index would do on MongoDB; FerretDB has none).
    { name: 'idempotency key purge', everyMs: HOUR_MS, run: () => idempotency.purgeExpired() },
  ];
}

/** Entry point of a migrate job: run once, exit 0 when done, 1 with the reason otherwise. */
export function runMigrate(migrate: () => Promise<unknown>, logger: Logger): void {
  Promise.resolve()
    .then(migrate)
    .then(
      () => process.exit(0),
      (err) => {
        logger.fatal({ err: err?.message ?? err, problems: err?.problems }, 'migration failed');
        process.exit(1);
      },
    );
}

/** Entry point of a service process: start, and stop cleanly on SIGTERM/SIGINT. */
export function runMain(start: () => Promise<{ stop: () => Promise<void> }>, logger: Logger): void {
  // Through a promise, so a configuration error thrown synchronously is reported like any other.
  const started = Promise.resolve().then(start);
  // Handlers first: a SIGTERM while the service is still starting (a rollout, a scale-down) waits for
  // the start to finish, then stops cleanly, instead of killing it half-way.
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    started
      .then((service) => service.stop())
      .then(
        () => process.exit(0),
        (err) => {
          logger.error({ err: (err as Error)?.message ?? err }, 'unclean shutdown');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  started.catch((err) => {
    logger.fatal({ err: err?.message ?? err, problems: err?.problems }, 'failed to start');
    process.exit(1);
  });
}
