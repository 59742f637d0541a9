import type { Logger, PeriodicJob } from '@travel/platform';
import type { DispatcherRepositories, Purged } from '../infra/repositories';

export type { Purged } from '../infra/repositories';

export const RETENTION_DAYS = 30;

/**
 * Hard-deletes, each by an indexed date: delivery rows created more than 30 days ago; event envelopes
 * (the payload bytes) whose newest referencing row is that old; deleted subscriptions deleted that long
 * ago (their rows are older still). Rows first, so a row never outlives its bytes. A row whose attempt
 * series still runs (Pending) is kept however old, with its envelope; a manual retry renews the
 * envelope's 30 days (docs/decisions/0112). A job rather than a TTL index: FerretDB has none, and a job
 * is observable (docs/decisions/0002, 0039).
 */
export function purgeOldDeliveries(repos: DispatcherRepositories, now = new Date()): Promise<Purged> {
  return repos.purgeOlderThan(new Date(now.getTime() - RETENTION_DAYS * 86_400_000));
}

/** The dispatcher's retention, run once per `everyMs` across the replicas (a lease, 0218; deletes by date). */
export function retentionJobs(repos: DispatcherRepositories, logger: Logger, everyMs: number): PeriodicJob[] {
  return [
    {
      name: 'delivery retention purge',
      everyMs,
      run: async () => {
        const n = await purgeOldDeliveries(repos);
        if (n.deliveries || n.envelopes || n.subscriptions) logger.info(n, 'delivery retention purge');
      },
    },
    {
      // A secret replaced by a rotation is kept (sealed) only while it still signs (docs/decisions/0149).
      name: 'erasing replaced webhook secrets',
      everyMs,
      run: async () => {
        const erased = await repos.eraseReplacedSecrets(new Date());
        if (erased) logger.info({ erased }, 'replaced webhook secrets erased');
      },
    },
  ];
}
