import type { Connection } from 'mongoose';
import {
  CollectionVersions,
  TenantModel,
  crossTenant,
  stampMissingEditedAt,
  type Logger,
  type TenantId,
} from '@travel/platform';
import { moveDeliveryPayloads, retireDeliveryIndexes } from './migrations';
import { registerModels, type DeliveryDoc, type EnvelopeDoc, type SubscriptionDoc } from './models';
import { OutcomeWriter } from './outcome-writer';
import { InsertBatcher } from './insert-batcher';

export type { AttemptRow, DeliveryDoc, EnvelopeDoc, SubscriptionDoc } from './models';

export interface Purged {
  deliveries: number;
  envelopes: number;
  subscriptions: number;
}

/**
 * The only way to the dispatcher's store (docs/decisions/0082): a scope per `TenantId` for every
 * collection, the two bulk inserts of the fan-out (on the driver, checked to be one tenant's rows), and the
 * few calls across tenants as named functions marked `crossTenant` (docs/decisions/0081).
 */
export interface DispatcherRepositories {
  /**
   * The tenants' versions of the subscriptions (docs/decisions/0155, 0159): every write through their
   * scope bumps it. The delivery log and the envelopes are not versioned (0159).
   */
  versions: CollectionVersions;
  subscriptions: TenantModel<SubscriptionDoc>;
  deliveries: TenantModel<DeliveryDoc>;
  envelopes: TenantModel<EnvelopeDoc>;
  /** Inserts an event's envelope; a duplicate key (a redelivered event) is the caller's to handle. */
  insertEnvelope(tenant: TenantId, doc: EnvelopeDoc): Promise<void>;
  /** Inserts delivery rows in one unordered command; duplicates (a redelivered event) are the caller's. */
  insertDeliveries(tenant: TenantId, rows: DeliveryDoc[]): Promise<void>;
  /** The same, telling for each row whether it was written (false: one for its event and subscription exists). */
  insertDeliveriesOnce(tenant: TenantId, rows: DeliveryDoc[]): Promise<boolean[]>;
  /** The batched writer of attempt outcomes (its filters carry the row's tenant: app/record.ts). */
  outcomeWriter(windowMs: number): OutcomeWriter;
  /**
   * Retention: what is older than `cutoff`, of every company (rows first, so a row never outlives its
   * bytes), except rows whose attempt series still runs and their envelopes.
   */
  purgeOlderThan(cutoff: Date): Promise<Purged>;
  /**
   * Erases the replaced secrets whose rotation grace ended by `now`, of every company: they sign nothing
   * any more (docs/decisions/0149). How many subscriptions were cleaned.
   */
  eraseReplacedSecrets(now: Date): Promise<number>;
  /** The gauge of disabled subscriptions, over every company. */
  countInactiveSubscriptions(): Promise<number>;
  /** Subscriptions whose recorded health notice is due by `now`, of every company (0229). */
  dueHealthNotices(now: Date, limit: number): Promise<Array<Pick<SubscriptionDoc, '_id' | 'tenantId'>>>;
  /**
   * The start-up migrations, over every company: moves payloads of rows written before envelopes existed
   * (how many rows), drops the delivery indexes 0239 retired.
   */
  migrate(logger?: Logger): Promise<number>;
}

function ownRows<T extends { tenantId: string }>(tenant: TenantId, docs: T[]): T[] {
  if (docs.some((d) => d.tenantId !== tenant)) throw new Error('rows of another tenant written in this tenant’s name');
  return docs;
}

/** A duplicate-key error as the driver reports one, for a document a batched insert found existing. */
function duplicateKey(): Error {
  return Object.assign(new Error('E11000 duplicate key (batched insert)'), { code: 11000 });
}

/**
 * `insertBatchMs`: the fan-outs of concurrent events share one insert command per collection per window
 * (docs/decisions/0088); 0 sends each on its own.
 */
export function dispatcherRepositories(
  conn: Connection,
  options: { insertBatchMs?: number } = {},
): DispatcherRepositories {
  const models = registerModels(conn);
  const batchMs = options.insertBatchMs ?? 0;
  const envelopeInserts = new InsertBatcher(() => models.Envelope.collection as never, batchMs);
  const deliveryInserts = new InsertBatcher(() => models.Delivery.collection as never, batchMs);
  const versions = new CollectionVersions(conn);
  const subscriptions = new TenantModel(models.Subscription, versions);
  return {
    versions,
    subscriptions,
    deliveries: new TenantModel(models.Delivery),
    envelopes: new TenantModel(models.Envelope),
    insertEnvelope: async (tenant, doc) => {
      // On the driver: no mongoose document is built for a body stored once per event (hot path).
      const [status] = await envelopeInserts.insert(ownRows(tenant, [doc]) as never[]);
      if (status === 'duplicate') throw duplicateKey();
    },
    insertDeliveries: async (tenant, rows) => {
      const statuses = await deliveryInserts.insert(ownRows(tenant, rows) as never[]);
      if (statuses.includes('duplicate')) throw duplicateKey();
    },
    insertDeliveriesOnce: async (tenant, rows) =>
      (await deliveryInserts.insert(ownRows(tenant, rows) as never[])).map((status) => status === 'inserted'),
    outcomeWriter: (windowMs) => new OutcomeWriter(() => models.Delivery.collection as never, windowMs),
    purgeOlderThan: async (cutoff) => {
      const retention = crossTenant('retention: the 30-day delivery log of every company');
      // A row whose attempt series still runs (Pending: an attempt queued or a retry scheduled) is kept,
      // and so are the bytes it will send (docs/decisions/0112), unless its subscription is gone (purged:
      // no attempt of it can run any more).
      const old = { createdAt: { $lt: cutoff } };
      const ended = await models.Delivery.deleteMany({ ...old, status: { $ne: 'Pending' } }, retention);
      const pending = await models.Delivery.find(
        { ...old, status: 'Pending' },
        { subscriptionId: 1, eventId: 1 },
        retention,
      ).lean<Array<Pick<DeliveryDoc, '_id' | 'subscriptionId' | 'eventId'>>>();
      const subscribed = new Set(
        (
          await models.Subscription.find(
            { _id: { $in: [...new Set(pending.map((r) => r.subscriptionId))] } },
            { _id: 1 },
            retention,
          ).lean()
        ).map((sub) => sub._id),
      );
      const stranded = pending.filter((r) => !subscribed.has(r.subscriptionId)).map((r) => r._id);
      const strandedGone = stranded.length
        ? (await models.Delivery.deleteMany({ _id: { $in: stranded }, status: 'Pending' }, retention)).deletedCount
        : 0;
      const running = pending.filter((r) => subscribed.has(r.subscriptionId)).map((r) => r.eventId);
      const envelopes = await models.Envelope.deleteMany(
        { lastUsedAt: { $lt: cutoff }, _id: { $nin: running } },
        retention,
      );
      // Tenant by tenant through its scope, so each tenant's subscriptions version is bumped (0159): a
      // dispatcher's cached subscriptions are revalidated by that version (0238).
      const purged = { deletedAt: { $lt: cutoff } };
      let subscriptionsGone = 0;
      for (const tenant of (await models.Subscription.distinct('tenantId', purged, retention)) as TenantId[])
        subscriptionsGone += (await subscriptions.of(tenant).deleteMany(purged)).deletedCount;
      return {
        deliveries: ended.deletedCount + strandedGone,
        envelopes: envelopes.deletedCount,
        subscriptions: subscriptionsGone,
      };
    },
    eraseReplacedSecrets: async (now) => {
      // Tenant by tenant through its scope, so each tenant's subscriptions version is bumped (0159): an
      // answer remembered while the grace ran must not be sent again once the secret is erased.
      const ended = { previousSecretExpiresAt: { $lte: now } };
      const tenants = await models.Subscription.distinct(
        'tenantId',
        ended,
        crossTenant('retention: replaced webhook secrets of every company, once their grace ended'),
      );
      let erased = 0;
      for (const tenant of tenants as TenantId[]) {
        const result = await subscriptions
          .of(tenant)
          .updateMany(ended, { $set: { previousSecret: null, previousSecretExpiresAt: null } });
        erased += result.modifiedCount;
      }
      return erased;
    },
    countInactiveSubscriptions: () =>
      models.Subscription.countDocuments({ isActive: false, deletedAt: null }).setOptions(
        crossTenant('metrics: disabled subscriptions of every company'),
      ),
    dueHealthNotices: (now, limit) =>
      models.Subscription.find(
        { 'pendingNotice.notBefore': { $lte: now }, deletedAt: null },
        { _id: 1, tenantId: 1 },
        crossTenant('health notices: the due webhook health notices of every company'),
      )
        .sort({ 'pendingNotice.notBefore': 1 })
        .limit(limit)
        .lean<Array<Pick<SubscriptionDoc, '_id' | 'tenantId'>>>(),
    migrate: async (logger) => {
      await stampMissingEditedAt(models.Subscription);
      const moved = await moveDeliveryPayloads(models, logger);
      await retireDeliveryIndexes(models, logger);
      return moved;
    },
  };
}
