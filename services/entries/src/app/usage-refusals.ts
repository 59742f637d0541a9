import { parseTenantId, type Logger, withRevisionRetry } from '@travel/platform';
import type { UsageRefused } from '../domain/usage-refused';
import type { EntriesRepositories } from '../infra/repositories';
import { EntryWrites } from './entry-writes';

/**
 * Fleet refused a use we announced (the vehicle was deleted between the claim and the event): the
 * Mileage row no longer names it. Applied only to the expense revision the refusal is about; a later
 * revision has its own claim. The row keeps its distance and price (they do not depend on the vehicle);
 * the change is a child change, so it raises entry.updated (docs/decisions/0048).
 */
export class UsageRefusals {
  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries'>,
    private readonly logger: Logger,
  ) {
    this.writes = new EntryWrites(repos);
  }

  private readonly writes: EntryWrites;

  async refused(event: UsageRefused): Promise<void> {
    const { tenantId, data } = event;
    // The tenant of an event taken from our own bus (docs/decisions/0081).
    const tenant = parseTenantId(tenantId);
    const entries = this.repos.entries.of(tenant);
    await withRevisionRetry('travel entry', async () => {
      const entry = await entries.get(data.entryId);
      const expense = entry?.expenses?.find((x) => x._id === data.expenseId);
      if (
        !entry ||
        entry.deletedAt ||
        !expense ||
        expense.vehicleId !== data.vehicleId ||
        expense.revision !== data.revision
      ) {
        this.logger.info({ entryId: data.entryId, expenseId: data.expenseId }, 'usage refusal no longer applies');
        return true;
      }
      const now = new Date();
      const expenses = entry.expenses.map((x) =>
        x._id === expense._id ? { ...x, vehicleId: null, revision: x.revision + 1, editedAt: now } : x,
      );
      await this.writes.apply(tenant, entry, { set: { expenses, editedAt: now }, announce: 'entry.updated', at: now });
      return true;
    });
  }
}
