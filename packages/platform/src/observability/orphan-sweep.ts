import { startPeriodicJob, type JobScheduling, type StopPeriodicJob } from '../periodic-job';

/** What one run of an orphan sweep removed. */
export interface Swept {
  files: number;
  bytes: number;
}

/** Bytes younger than this are never swept: their upload may still be writing the record. */
export const ORPHAN_GRACE_MS = 3_600_000;
export const ORPHAN_SWEEP_EVERY_MS = 86_400_000;

/**
 * Runs `sweep` once a day across the replicas (a lease, decision 0218): it deletes stored file bytes that no record references and that
 * were written before the cutoff it is given (now − `ORPHAN_GRACE_MS`), left by a crash between the
 * bytes and their record (docs/decisions/0114). Counts what it removed in
 * `orphaned_bytes_swept_total{store}` and `orphaned_files_swept_total{store}`; a failed run is logged
 * and the next one tries again.
 */
export function startOrphanSweep(options: {
  store: string;
  sweep: (cutoff: Date) => Promise<Swept>;
  jobs: JobScheduling;
  everyMs?: number;
}): { run(now?: Date): Promise<Swept>; stop: StopPeriodicJob } {
  const { metrics, logger } = options.jobs;
  const bytes = metrics.counter(
    'orphaned_bytes_swept_total',
    'Bytes of stored files no record referenced, deleted by the daily orphan sweep',
    ['store'],
  );
  const files = metrics.counter(
    'orphaned_files_swept_total',
    'Stored files no record referenced, deleted by the daily orphan sweep',
    ['store'],
  );
  bytes.inc({ store: options.store }, 0);
  files.inc({ store: options.store }, 0);
  const run = async (now = new Date()): Promise<Swept> => {
    const swept = await options.sweep(new Date(now.getTime() - ORPHAN_GRACE_MS));
    bytes.inc({ store: options.store }, swept.bytes);
    files.inc({ store: options.store }, swept.files);
    if (swept.files) logger.info({ store: options.store, ...swept }, 'orphaned files swept');
    return swept;
  };
  const stop = startPeriodicJob(
    {
      name: `orphan sweep of ${options.store}`,
      everyMs: options.everyMs ?? ORPHAN_SWEEP_EVERY_MS,
      run: () => run(),
      logFields: { store: options.store },
    },
    options.jobs,
  );
  return { run, stop };
}
