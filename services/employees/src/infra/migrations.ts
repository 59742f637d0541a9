import { crossTenant } from '@travel/platform';
import { emailKeyOf } from '../domain/employee';
import type { EmployeesModels } from './models';

/**
 * Brings employee documents written before the storage fields existed up to date: `emailKey` (the unique
 * e-mail index would otherwise see several nulls in one company) and `rev`. Runs before the indexes are
 * created; a no-op once every document has both. Idempotent and safe to run from several replicas.
 */
export async function backfillEmployeeStorage(models: EmployeesModels): Promise<number> {
  const migration = crossTenant('migration: backfilling storage fields of every company');
  let updated = 0;
  let stalled = 0;
  for (;;) {
    const batch = await models.Employee.find({ emailKey: { $exists: false } }, { _id: 1, email: 1, rev: 1 }, migration)
      .limit(500)
      .lean();
    if (batch.length === 0) return updated;
    const before = updated;
    for (const doc of batch) {
      const $set: Record<string, unknown> = { emailKey: emailKeyOf({ _id: doc._id, email: doc.email ?? null }) };
      if (typeof doc.rev !== 'number') $set.rev = 0;
      const res = await models.Employee.updateOne({ _id: doc._id, emailKey: { $exists: false } }, { $set }, migration);
      updated += res.modifiedCount;
    }
    // Another replica may have done a batch at the same time; twice in a row without progress is a fault.
    stalled = updated === before ? stalled + 1 : 0;
    if (stalled >= 2) throw new Error('backfilling employee storage fields makes no progress');
  }
}
