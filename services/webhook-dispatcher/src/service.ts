import { EmployeesClient } from '@travel/contracts';
import {
  ConditionalGets,
  internalTransports,
  parseConfig,
  ReplicaCount,
  retryCountOf,
  SmtpMailer,
  startConsumer,
  startPeriodicJob,
  startService,
  type DomainEvent,
  type StartOptions,
  type StopPeriodicJob,
} from '@travel/platform';
import { configSchema, SERVICE } from './config';
import { AttemptRunner } from './app/attempts';
import { DeliveriesApp } from './app/deliveries';
import { Deliverer } from './app/deliver';
import { fanOut } from './app/fan-out';
import { FirstAttempts } from './app/first-attempts';
import { HealthNotices, healthNoticesJob } from './app/health-notices';
import { OutcomeRecorder } from './app/record';
import { AttemptScheduler } from './app/schedule';
import { RecoveryApp } from './app/recovery';
import { retentionJobs } from './app/retention';
import { SubscriptionsApp } from './app/subscriptions';
import { publicRoutes } from './http/routes';
import { HttpsSender } from './infra/https-sender';
import { EnvelopeCache } from './infra/envelope-cache';
import { dispatcherRepositories } from './infra/repositories';
import { attemptTopology, waitQueueOf, type AttemptMessage } from './infra/queues';
import { CONSUMERS } from './infra/topology';
import { SecretBox } from './infra/secret-box';
import { SubscriptionCache } from './infra/subscription-cache';
import { SubscriptionSlots } from './app/subscription-slots';
import { systemResolve, type Resolve } from './infra/destination';
import { cachingResolve } from './infra/dns-cache';

export { SERVICE } from './config';

/** At most one read of a tenant's subscriptions per this many ms under a stream of its events (0096). */
const SUBSCRIPTION_READ_SPACING_MS = 20;

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export interface DispatcherOptions extends StartOptions {
  /** DNS seam for tests (rebinding, names only the test knows); production uses the system resolver. */
  resolve?: Resolve;
}

export function start(env: NodeJS.ProcessEnv = process.env, options?: DispatcherOptions) {
  const config = readConfig(env);
  const box = new SecretBox(config.encryptionKey);
  const sender = new HttpsSender(config.timeoutMs);
  let stopJobs: StopPeriodicJob[] = [];
  // Health notices (docs/decisions/0229): without a mail transport they stay recorded, unsent.
  const mailer = config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.noticeFrom) : undefined;

  return startService(
    config,
    ({ mongo, amqp, logger, metrics, jobs }) => {
      const repos = dispatcherRepositories(mongo, { insertBatchMs: config.outcomeBatchMs });
      const subscriptionCache = new SubscriptionCache(
        repos,
        config.subscriptionCacheMs,
        undefined,
        SUBSCRIPTION_READ_SPACING_MS,
      );
      const subscriptions = new SubscriptionsApp(repos, box, config.allowedCidrs, options?.resolve, subscriptionCache);
      const deliveries = new DeliveriesApp(repos, amqp);
      const recovery = new RecoveryApp(repos, amqp, logger, subscriptionCache);
      const envelopes = new EnvelopeCache();
      // One way to send (docs/decisions/0166): the fan-out's first attempts and the queued ones both go
      // through `deliver`, `record` and `schedule`.
      // The per-subscription bound holds in total: each replica sends at most its share of it, and a
      // joining replica waits until the others have shrunk theirs and their sends beyond them ended (0220).
      const replicas = new ReplicaCount({
        client: amqp,
        service: SERVICE,
        checkEveryMs: config.replicaCheckMs,
        logger,
      });
      const joinWaitMs = config.replicaCheckMs + config.timeoutMs;
      const slots = new SubscriptionSlots(
        () => replicas.shareOf(config.maxInFlightPerSubscription, joinWaitMs),
        // A subscription may hold at most half of the worker slots (sending and waiting), and all the
        // waiters together a quarter of them: the rest stay free for other partners (decision 0088).
        Math.min(
          2 * config.maxInFlightPerSubscription,
          Math.max(0, Math.floor(config.attemptPrefetch / 2) - config.maxInFlightPerSubscription),
        ),
        Math.floor(config.attemptPrefetch / 4),
        config.slotWaitMs,
      );
      const schedule = new AttemptScheduler(amqp, config.tiers);
      const deliverer = new Deliverer({
        sender,
        box,
        allowedCidrs: config.allowedCidrs,
        slots,
        // Sends reuse a host's checked answers for a while; registration (above) always looks up afresh.
        resolve: cachingResolve(options?.resolve ?? systemResolve, config.dnsCacheMs),
      });
      const notices = mailer
        ? new HealthNotices(
            repos,
            new EmployeesClient(internalTransports(SERVICE, config.signingKey)('employees', config.employeesUrl)),
            mailer,
            logger,
          )
        : undefined;
      const recorder = new OutcomeRecorder({
        repos,
        outcomes: repos.outcomeWriter(config.outcomeBatchMs),
        subscriptions: subscriptionCache,
        schedule,
        tiers: config.tiers,
        logger,
        metrics,
        notify: notices && ((tenantId, subscriptionId) => notices.send(tenantId, subscriptionId)),
      });
      const runner = new AttemptRunner({
        repos,
        envelopes,
        subscriptions: subscriptionCache,
        slots,
        deliverer,
        recorder,
        schedule,
      });
      const first = new FirstAttempts({
        subscriptions: subscriptionCache,
        slots,
        deliverer,
        recorder,
        // Half of the event prefetch at most waits on first attempts sent from the fan-out (0095).
        maxEventsSending: config.directFirstAttempt ? Math.max(1, Math.floor(config.eventPrefetch / 2)) : 0,
      });
      const fanOutDeps = {
        repos,
        schedule,
        envelopes,
        subscriptions: subscriptionCache,
        sendNow: { first, recorder },
        // By event type only: a tenant or subscription label would grow without bound (0231).
        filtered: metrics.counter(
          'webhook_deliveries_filtered_total',
          'Deliveries not made because the subscription filter passed over the event',
          ['event_type'],
        ),
      };

      metrics.gauge('webhook_wait_queue_messages', 'Attempts waiting in each retry tier', ['tier'], async function () {
        if (!amqp.connected) return;
        const ch = await amqp.channel();
        try {
          for (const tier of config.tiers)
            this.set({ tier: tier.label }, (await ch.checkQueue(waitQueueOf(tier.label))).messageCount);
        } finally {
          await ch.close().catch(() => undefined);
        }
      });
      metrics.gauge('webhook_subscriptions_inactive', 'Subscriptions currently disabled', [], async function () {
        this.set(await repos.countInactiveSubscriptions());
      });

      const reads = new ConditionalGets(repos.versions);
      return {
        api: publicRoutes(subscriptions, deliveries, recovery, reads, repos.subscriptions),
        reads,
        migrate: async () => {
          await repos.migrate(logger);
        },
        async start() {
          await replicas.start(); // before the consumers: no send without a share
          await startConsumer<DomainEvent>({
            client: amqp,
            logger,
            metrics,
            // No inbox: the fan-out is idempotent by itself (the unique row per event and subscription, and
            // only never-run first attempts queued again), and the inbox cost a read and a write per event
            // (docs/decisions/0061).
            retry: config.consumerRetry,
            queue: CONSUMERS.events,
            prefetch: config.eventPrefetch,
            // A first-time event may send its first attempts itself (decision 0095).
            handle: async (event, raw) => {
              const fresh = !raw.fields.redelivered && retryCountOf(raw) === 0;
              await fanOut(fanOutDeps, event, fresh);
            },
          });
          await startConsumer<AttemptMessage>({
            client: amqp,
            logger,
            metrics,
            retry: config.consumerRetry,
            queue: CONSUMERS.attempts,
            requires: attemptTopology(config.tiers),
            prefetch: config.attemptPrefetch,
            // A first-time message (not redelivered, never failed) may skip the row read (decision 0089).
            handle: (m, raw) => runner.run(m, !raw.fields.redelivered && retryCountOf(raw) === 0),
          });
          stopJobs = retentionJobs(repos, logger, config.retentionEveryMs).map((job) => startPeriodicJob(job, jobs));
          if (notices) stopJobs.push(startPeriodicJob(healthNoticesJob(notices, config.noticeEveryMs), jobs));
          else logger.warn('SMTP_URL is not set: webhook health notices are not sent');
        },
        async stop() {
          await Promise.all(stopJobs.map((stopJob) => stopJob()));
          replicas.stop(); // its presence lasts until the connection closes, after the sends have ended
          sender.close();
          mailer?.close();
        },
      };
    },
    options,
  );
}
