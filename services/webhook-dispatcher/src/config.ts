import { serviceEntry } from '@travel/contracts';
import { env, envSection, serviceConfig } from '@travel/platform';
import { parseCidrs } from './domain/address-policy';
import { SPEC_SCHEDULE, parseSchedule } from './domain/schedule';

export const SERVICE = 'webhook-dispatcher';
export const DEFAULT_PORT = serviceEntry('webhook-dispatcher').port;

const dispatcherEnv = () =>
  envSection('webhook-dispatcher', {
    WEBHOOK_SECRET_ENCRYPTION_KEY: env.secretKey({
      bytes: 32,
      description:
        'AES-256-GCM key for partners’ signing secrets at rest (`openssl rand -base64 32`). Any other length stops the start with `WEBHOOK_SECRET_ENCRYPTION_KEY must be 32 bytes, base64-encoded`. See [rotation](#the-webhook-secret-encryption-key).',
    }),
    WEBHOOK_RETRY_SCHEDULE: env.parsed(
      {
        type: 'exactly 8 comma-separated delays, each `<integer><ms|s|m|h|d>`',
        default: SPEC_SCHEDULE,
        fallback: [],
        description:
          'Delays before attempts 2–9. Each delay is one wait queue named after it (`webhook-dispatcher.wait.30s`), so a changed schedule creates new queues (see operations.md).',
      },
      parseSchedule,
    ),
    WEBHOOK_ALLOWED_PRIVATE_CIDRS: env.parsed(
      {
        type: 'comma-separated CIDR ranges',
        default: '',
        fallback: [],
        description:
          'CIDR ranges let through the destination check, which otherwise refuses loopback, RFC 1918, link-local, CGNAT, unique-local IPv6 and other non-public addresses. **Development and tests only; keep it empty in production.**',
      },
      (text) =>
        parseCidrs(
          text
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
    ),
    WEBHOOK_TIMEOUT_MS: env.int({
      default: 10_000,
      min: 100,
      max: 60_000,
      description: 'Total time for one attempt (connect, TLS, answer), in ms.',
    }),
    WEBHOOK_ATTEMPT_PREFETCH: env.int({
      default: 64,
      min: 1,
      max: 1000,
      description:
        'Unacknowledged attempt messages per replica, which is the number of attempts a replica runs at once.',
    }),
    WEBHOOK_EVENT_PREFETCH: env.int({
      default: 64,
      min: 1,
      max: 1000,
      description:
        'Unacknowledged events per replica. An event stays unacknowledged while its first attempts are sent from the fan-out (`WEBHOOK_DIRECT_FIRST_ATTEMPT`); at most half of these events may wait on such sends (docs/decisions/0095).',
    }),
    WEBHOOK_DIRECT_FIRST_ATTEMPT: env.bool({
      default: true,
      description:
        'Send a new event’s first attempt from the fan-out itself, for subscriptions with a free slot that answer promptly, and write its delivery row once with the outcome (docs/decisions/0095). `false` queues every first attempt through `webhook-dispatcher.attempts` (a row insert, a message and an outcome update per delivery).',
    }),
    WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION: env.int({
      default: 8,
      min: 1,
      max: 1000,
      description:
        'Attempts in flight per subscription, **in total over all replicas**: each replica takes ⌊this ÷ live replicas⌋ (at least 1), counted through the broker every `WEBHOOK_REPLICA_CHECK_MS` (docs/decisions/0220). An attempt over the bound may first wait in the replica for a slot (`WEBHOOK_SLOT_WAIT_MS`, docs/decisions/0088); otherwise it waits 1 s in `webhook-dispatcher.wait.defer-1s` (10 s in `…defer-10s` after 3 deferrals in a row) instead of holding a slot.',
    }),
    WEBHOOK_REPLICA_CHECK_MS: env.int({
      default: 1000,
      min: 100,
      max: 10_000,
      description:
        'How often a replica counts the live dispatcher replicas (consumers of the `webhook-dispatcher.presence` queue) for its share of `WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION`: a replica that stops or dies leaves its share to the others within this time. A replica joining others sends nothing for this time plus `WEBHOOK_TIMEOUT_MS`, until they have shrunk their shares and their sends beyond them have ended (docs/decisions/0220).',
    }),
    WEBHOOK_RETENTION_INTERVAL_MS: env.int({
      default: 86_400_000,
      min: 1000,
      note: '24 h',
      description:
        'How often the job that deletes delivery rows older than 30 days runs, once per such period across the replicas (decision 0218). The 30 days are fixed.',
    }),
    WEBHOOK_SUBSCRIPTION_CACHE_MS: env.int({
      default: 1000,
      max: 60_000,
      description:
        'How long a replica uses its cached copy of a tenant’s subscriptions without checking it (docs/decisions/0059, 0238): an attempt sees a delete or disable made through another replica within this time. An event raised after a change sees it, whichever replica made it: the copy is checked against the tenant’s subscriptions version first.',
    }),
    WEBHOOK_DNS_CACHE_MS: env.int({
      default: 5000,
      max: 60_000,
      description:
        'How long a replica reuses a destination host’s DNS answers for its sends, one lookup shared by the sends to that host (docs/decisions/0242): a partner’s DNS change is followed within this time. Every answer is checked against the address policy and every connection goes to the checked address, so an answer kept is never an unchecked one. Registration always looks up afresh. `0`: every attempt looks up.',
    }),
    WEBHOOK_OUTCOME_BATCH_MS: env.int({
      default: 5,
      max: 1000,
      description:
        'Attempt outcomes finishing within this time are written as one bulk write of at most 64 statements (docs/decisions/0060, 0087); each attempt is acknowledged after its write. The fan-outs of concurrent events also share one insert of envelopes and one of delivery rows per window (0088).',
    }),
    EMPLOYEES_URL: env.urls({
      default: 'http://127.0.0.1:8081',
      description:
        'The employees service, asked for the company’s account owners and their e-mail addresses when a webhook health notice is sent (docs/decisions/0229). Unreachable: the notice is tried again later.',
    }),
    SMTP_URL: env.optional({
      type: 'nodemailer SMTP URL',
      description:
        'SMTP server of the webhook health notices to the account owners (`smtp://user:pass@host:587`, `smtps://…:465`; docs/decisions/0229). Unset: no notice is sent (each stays recorded, unsent; a warning at start). `npm start` points it at a local sink that prints every e-mail.',
    }),
    WEBHOOK_NOTICE_FROM: env.string({
      default: 'Travel-expense webhooks <webhooks@travel-expense.invalid>',
      description: 'The `From` of the webhook health notices.',
    }),
    WEBHOOK_NOTICE_INTERVAL_MS: env.int({
      default: 60_000,
      min: 100,
      description:
        'How often the job that sends webhook health notices not sent at their transition (a failed send, backed off 1 min doubling to 1 h, or a replica stopped mid-send) runs, once per such period across the replicas (decision 0218).',
    }),
    WEBHOOK_SLOT_WAIT_MS: env.int({
      default: 500,
      max: 1000,
      description:
        'How long an attempt over its subscription’s bound may wait in the replica for a slot before it is deferred through the broker (docs/decisions/0088): only while that subscription’s sends are ending, and within room bounded by `WEBHOOK_ATTEMPT_PREFETCH` (at most half of it per subscription, a quarter in all). `0` defers at once.',
    }),
  });

/** The shared settings plus the dispatcher's own (docs/configuration.md, "Webhook dispatcher"). */
export const configSchema = serviceConfig(SERVICE, DEFAULT_PORT, dispatcherEnv(), (v) => ({
  tiers: v.WEBHOOK_RETRY_SCHEDULE,
  allowedCidrs: v.WEBHOOK_ALLOWED_PRIVATE_CIDRS,
  timeoutMs: v.WEBHOOK_TIMEOUT_MS,
  encryptionKey: v.WEBHOOK_SECRET_ENCRYPTION_KEY,
  attemptPrefetch: v.WEBHOOK_ATTEMPT_PREFETCH,
  eventPrefetch: v.WEBHOOK_EVENT_PREFETCH,
  /** First attempts sent from the fan-out (docs/decisions/0095). */
  directFirstAttempt: v.WEBHOOK_DIRECT_FIRST_ATTEMPT,
  maxInFlightPerSubscription: v.WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION,
  /** How often the live replicas are counted for each one's share of the bound (docs/decisions/0220). */
  replicaCheckMs: v.WEBHOOK_REPLICA_CHECK_MS,
  retentionEveryMs: v.WEBHOOK_RETENTION_INTERVAL_MS,
  /** How long a replica may act on a subscription changed by another replica (docs/decisions/0059). */
  subscriptionCacheMs: v.WEBHOOK_SUBSCRIPTION_CACHE_MS,
  /** How long a replica sends on a host's DNS answers before it asks again (docs/decisions/0242). */
  dnsCacheMs: v.WEBHOOK_DNS_CACHE_MS,
  /** How long an attempt's outcome waits to be written with others (docs/decisions/0060). */
  outcomeBatchMs: v.WEBHOOK_OUTCOME_BATCH_MS,
  /** How long an attempt over its subscription's bound may wait here for a slot (docs/decisions/0088). */
  slotWaitMs: v.WEBHOOK_SLOT_WAIT_MS,
  /** Health notices (docs/decisions/0229): who the account owners are, and the mail transport. */
  employeesUrl: v.EMPLOYEES_URL,
  smtpUrl: v.SMTP_URL,
  noticeFrom: v.WEBHOOK_NOTICE_FROM,
  noticeEveryMs: v.WEBHOOK_NOTICE_INTERVAL_MS,
}));
