import { Schema, type Connection, type Model } from 'mongoose';
import { keepsEditedAt, tenantScoped } from '@travel/platform';
import type { DeliveryStatus, OutcomeKind } from '../domain/outcome';
import type { PendingNotice } from '../domain/health';
import type { SignatureScheme } from '../domain/signature-scheme';

export interface SubscriptionDoc {
  _id: string;
  tenantId: string;
  url: string;
  eventTypes: string[];
  /**
   * The payload filter as the partner sent it, as JSON text (docs/decisions/0230): its keys (`data.status`,
   * `$or`) are not portable field names in a document, so it is stored whole; null: every event.
   */
  filter?: string | null;
  /** How deliveries are signed; absent on records older than the choice: the `Svc-*` scheme (0226). */
  signatureScheme?: SignatureScheme;
  /** Signing secret, encrypted (infra/secret-box). */
  secret: string;
  /**
   * The secret the last rotation replaced, encrypted likewise: deliveries are signed with it too until
   * `previousSecretExpiresAt` (docs/decisions/0149). Null when no rotation is in its grace.
   */
  previousSecret?: string | null;
  previousSecretExpiresAt?: Date | null;
  isActive: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  consecutiveExhausted: number;
  /** Set when the streak reaches `FAILING_AFTER_EXHAUSTED`, cleared by a success (health, 0229). */
  failingSince?: Date | null;
  /** The health notice to send, recorded with its transition; null once sent (0229). */
  pendingNotice?: PendingNotice | null;
  lastNoticeAt?: Date | null;
  createdAt: Date;
  /**
   * The last change of the record, for delta sync (docs/decisions/0159): set at creation and by the
   * schema's hooks on every update, whichever path writes it; stamped at start-up on records written
   * before it existed (`keepsEditedAt`, `stampMissingEditedAt`).
   */
  editedAt?: Date;
  /**
   * Set by DELETE: the subscription is gone from the API (list, read, recover) and gets no deliveries,
   * but its delivery log stays readable until the retention job removes it with its rows
   * (docs/decisions/0038). Its secret is erased at deletion.
   */
  deletedAt?: Date | null;
  /**
   * The earliest `since` of a `recover` call: events raised since then that reach the dispatcher only
   * after the call (still in transit) are delivered too, as if the call had seen them.
   */
  recoverSince?: Date | null;
}

/**
 * The signed body of one public event, stored once however many subscriptions it goes to; delivery
 * rows reference it by event id (`_id`). Kept while any subscription of the tenant (active, disabled or
 * deleted but not yet purged) asks for its type, so `recover` can re-send it after an outage.
 */
export interface EnvelopeDoc {
  /** The event id. */
  _id: string;
  tenantId: string;
  eventType: string;
  occurredAt: Date;
  /** The exact envelope bytes, as UTF-8 text. */
  payload: string;
  createdAt: Date;
  /** The newest delivery row referencing it was created then: retention counts 30 days from here. */
  lastUsedAt: Date;
}

export interface AttemptRow {
  series: number;
  attempt: number;
  at: Date;
  outcome: OutcomeKind;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Unique per recorded attempt: tells a batched write which compare-and-set took effect (infra/outcome-writer). */
  token?: string;
}

export interface DeliveryDoc {
  _id: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** When the event was raised (for end-to-end latency). */
  occurredAt: Date;
  /**
   * Rows written before envelopes were stored once per event carried the bytes here; the migration
   * moves them to the envelope collection (infra/migrations.ts). New rows never have it.
   */
  payload?: string;
  status: DeliveryStatus;
  /** 1 for the automatic series; each manual retry starts the next. */
  series: number;
  /** Attempts made in the current series. */
  attemptsMade: number;
  totalAttempts: number;
  attemptLog: AttemptRow[];
  lastStatusCode: number | null;
  responseBody: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Written by `recover` for an event raised long before (kept out of the latency histogram). */
  recovered?: boolean;
}

/** The one unique index of delivery rows (docs/decisions/0239). */
export const DELIVERY_UNIQUE_KEY = { tenantId: 1, eventId: 1, subscriptionId: 1 } as const;

/**
 * Indexes of delivery rows that stores made before 0239 have and no query needs any more: the unique key
 * in its former order, and the lookup by event that the unique key now serves. Dropped at start once the
 * declared indexes exist (infra/migrations.ts).
 */
export const RETIRED_DELIVERY_KEYS: ReadonlyArray<Record<string, 1>> = [
  { tenantId: 1, subscriptionId: 1, eventId: 1 },
  { tenantId: 1, eventId: 1 },
];

export interface DispatcherModels {
  Subscription: Model<SubscriptionDoc>;
  Delivery: Model<DeliveryDoc>;
  Envelope: Model<EnvelopeDoc>;
}

export function registerModels(conn: Connection): DispatcherModels {
  // Idempotent: the admin command, the seeding script and tests may ask again on one connection.
  if (conn.models.Subscription)
    return {
      Subscription: conn.models.Subscription,
      Delivery: conn.models.Delivery,
      Envelope: conn.models.Envelope,
    } as DispatcherModels;
  const subscription = new Schema<SubscriptionDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      url: { type: String, required: true },
      eventTypes: { type: [String], required: true },
      filter: { type: String, default: null },
      signatureScheme: { type: String },
      secret: { type: String, required: true },
      previousSecret: { type: String, default: null },
      previousSecretExpiresAt: { type: Date, default: null },
      isActive: { type: Boolean, required: true },
      disabledAt: { type: Date, default: null },
      disabledReason: { type: String, default: null },
      consecutiveExhausted: { type: Number, default: 0 },
      failingSince: { type: Date, default: null },
      pendingNotice: {
        type: new Schema<PendingNotice>(
          { kind: { type: String, required: true }, notBefore: { type: Date, required: true }, attempts: Number },
          { _id: false },
        ),
        default: null,
      },
      lastNoticeAt: { type: Date, default: null },
      createdAt: { type: Date, required: true },
      deletedAt: { type: Date, default: null },
      recoverSince: { type: Date, default: null },
    },
    { collection: 'subscriptions', versionKey: false },
  );
  subscription.index({ tenantId: 1, isActive: 1, eventTypes: 1 });
  subscription.index({ tenantId: 1, createdAt: -1 });
  // Delta sync goes by (editedAt, _id) (docs/decisions/0156, 0159); every update moves editedAt, so no
  // write path (the use cases, the attempt runner's streak and disabling, retention) can forget it.
  subscription.index({ tenantId: 1, editedAt: 1, _id: 1 });
  keepsEditedAt(subscription);
  // Recover looks up a tenant's subscriptions to one URL; retention purges deleted ones by age.
  subscription.index({ tenantId: 1, url: 1 });
  subscription.index({ deletedAt: 1 });
  // Retention erases replaced secrets once their rotation grace ended (docs/decisions/0149).
  subscription.index({ previousSecretExpiresAt: 1 });
  // The health notice job finds the notices due, over every company (0229).
  subscription.index({ 'pendingNotice.notBefore': 1 });

  const attempt = new Schema<AttemptRow>(
    {
      series: Number,
      attempt: Number,
      at: Date,
      outcome: String,
      statusCode: { type: Number, default: null },
      error: { type: String, default: null },
      durationMs: Number,
      token: String,
    },
    { _id: false },
  );
  const delivery = new Schema<DeliveryDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      subscriptionId: { type: String, required: true },
      eventId: { type: String, required: true },
      eventType: { type: String, required: true },
      occurredAt: { type: Date, required: true },
      payload: { type: String },
      status: { type: String, required: true },
      series: { type: Number, required: true },
      attemptsMade: { type: Number, required: true },
      totalAttempts: { type: Number, required: true },
      attemptLog: { type: [attempt], default: [] },
      lastStatusCode: { type: Number, default: null },
      responseBody: { type: String, default: null },
      nextAttemptAt: { type: Date, default: null },
      createdAt: { type: Date, required: true },
      updatedAt: { type: Date, required: true },
      recovered: { type: Boolean },
    },
    { collection: 'deliveries', versionKey: false },
  );
  // Exactly one delivery per (event, subscription): a redelivered event cannot fan out twice. Event first,
  // so the same index serves the fan-out's and recover's lookups by event (docs/decisions/0239); by
  // subscription, the delivery log goes by the next one.
  delivery.index(DELIVERY_UNIQUE_KEY, { unique: true });
  delivery.index({ tenantId: 1, subscriptionId: 1, createdAt: -1 });
  // Retention sweeps by age across tenants.
  delivery.index({ createdAt: 1 });

  const envelope = new Schema<EnvelopeDoc>(
    {
      _id: String,
      tenantId: { type: String, required: true },
      eventType: { type: String, required: true },
      occurredAt: { type: Date, required: true },
      payload: { type: String, required: true },
      createdAt: { type: Date, required: true },
      lastUsedAt: { type: Date, required: true },
    },
    { collection: 'envelopes', versionKey: false },
  );
  envelope.index({ tenantId: 1, occurredAt: 1 });
  envelope.index({ lastUsedAt: 1 });

  // Every query of these collections must name the tenant or say why not (docs/decisions/0081).
  for (const schema of [subscription, delivery, envelope] as Schema[]) schema.plugin(tenantScoped);

  return {
    Subscription: conn.model<SubscriptionDoc>('Subscription', subscription),
    Delivery: conn.model<DeliveryDoc>('Delivery', delivery),
    Envelope: conn.model<EnvelopeDoc>('Envelope', envelope),
  };
}
