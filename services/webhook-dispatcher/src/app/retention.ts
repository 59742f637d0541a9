import type { Logger } from '@travel/platform';
import type { DispatcherModels } from '../infra/models';

export const RETENTION_DAYS = 30;

export interface Purged {
  deliveries: number;
  envelopes: number;
  subscriptions: number;
}

/**
 * Hard-deletes, each by an indexed date: delivery rows created more than 30 days ago; event envelopes
 * (the payload bytes) whose newest referencing row is that old; deleted subscriptions deleted that long
 * ago (their rows are older still). Rows first, so a row never outlives its bytes. A job rather than a
 * TTL index: FerretDB has none, and a job is observable (docs/decisions/0002, 0039).
 */
export async function purgeOldDeliveries(models: DispatcherModels, now = new Date()): Promise<Purged> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * 86_400_000);
  const deliveries = await models.Delivery.deleteMany({ createdAt: { $lt: cutoff } });
  const envelopes = await models.Envelope.deleteMany({ lastUsedAt: { $lt: cutoff } });
  const subscriptions = await models.Subscription.deleteMany({ deletedAt: { $lt: cutoff } });
  return {
    deliveries: deliveries.deletedCount,
    envelopes: envelopes.deletedCount,
    subscriptions: subscriptions.deletedCount,
  };
}

export function startRetentionJob(models: DispatcherModels, logger: Logger, everyMs: number): () => void {
  const run = () =>
    purgeOldDeliveries(models).then(
      (n) => (n.deliveries || n.envelopes || n.subscriptions) && logger.info(n, 'delivery retention purge'),
      (err) => logger.warn({ err: (err as Error).message }, 'delivery retention purge failed'),
    );
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
