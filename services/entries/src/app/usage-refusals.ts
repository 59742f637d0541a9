import { parseTenantId, raiseEvent, type Logger, withRevisionRetry } from '@travel/platform';
import type { TravelEntry } from '../domain/entry';
import type { UsageRefused } from '../domain/usage-refused';
import { toEntryWebhookDto } from '../domain/webhook';
import type { EntriesRepositories } from '../infra/repositories';

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
  ) {}

  async refused(event: UsageRefused): Promise<void> {
    const { tenantId, data } = event;
    // The tenant of an event taken from our own bus (docs/decisions/0081).
    const entries = this.repos.entries.of(parseTenantId(tenantId));
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
      const next: TravelEntry = { ...entry, expenses, editedAt: now };
      const updated = raiseEvent('entries', 'entry.updated', tenantId, toEntryWebhookDto(next), now);
      await entries.commit(entry, { $set: { expenses, editedAt: now }, where: { deletedAt: null } }, updated);
      return true;
    });
  }
}
