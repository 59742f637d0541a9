import type { Logger } from '@travel/platform';
import type { DispatcherModels } from '../infra/models';

export const RETENTION_DAYS = 30;

/**
 * Hard-deletes delivery rows (payload bytes included) older than 30 days. A job rather than a TTL
 * index: FerretDB has none, and a job is observable (docs/decisions).
 */
export async function purgeOldDeliveries(models: DispatcherModels, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * 86_400_000);
  const result = await models.Delivery.deleteMany({ createdAt: { $lt: cutoff } });
  return result.deletedCount;
}

export function startRetentionJob(models: DispatcherModels, logger: Logger, everyMs: number): () => void {
  const run = () =>
    purgeOldDeliveries(models).then(
      (n) => n && logger.info({ deleted: n }, 'delivery retention purge'),
      (err) => logger.warn({ err: (err as Error).message }, 'delivery retention purge failed'),
    );
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
