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

/**
 * Gives keys issued before caps existed the cap they would have had (docs/decisions/0104): the flags their
 * employee holds now within those their issuer holds now (issuing required the issuer to hold all of the
 * employee's flags, 0013, so this keeps what the key did the day it was issued, unless the issuer has lost
 * a flag since). No key gains anything; a key whose employee was granted a flag its issuer lacks loses it.
 * The operator's keys (no issuer) stay uncapped. Idempotent: only keys without the field are touched.
 */
export async function backfillApiKeyCaps(models: EmployeesModels): Promise<number> {
  const migration = crossTenant('migration: capping API keys issued before caps existed, in every company');
  let updated = 0;
  let stalled = 0;
  for (;;) {
    const before = updated;
    const batch = await models.ApiKey.find(
      { permissionCap: { $exists: false } },
      { _id: 1, tenantId: 1, employeeId: 1, createdByEmployeeId: 1 },
      migration,
    )
      .limit(500)
      .lean();
    if (batch.length === 0) return updated;
    for (const key of batch) {
      const flagsOf = async (id: string) =>
        (await models.Employee.findOne({ tenantId: key.tenantId, _id: id }, { permissions: 1 }, migration).lean())
          ?.permissions ?? [];
      let permissionCap: string[] | null = null;
      if (key.createdByEmployeeId) {
        const [own, issuer] = await Promise.all([flagsOf(key.employeeId), flagsOf(key.createdByEmployeeId)]);
        permissionCap = own.filter((flag) => issuer.includes(flag));
      }
      const res = await models.ApiKey.updateOne(
        { _id: key._id, permissionCap: { $exists: false } },
        { $set: { permissionCap } },
        migration,
      );
      updated += res.modifiedCount;
    }
    // Another replica may have done a batch at the same time; twice in a row without progress is a fault.
    stalled = updated === before ? stalled + 1 : 0;
    if (stalled >= 2) throw new Error('capping API keys makes no progress');
  }
}
