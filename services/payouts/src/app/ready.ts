import { listPage, parseTenantId, type ListRequest, type Logger } from '@travel/platform';
import { APPROVED, applyChange, type EntryChange, type ReadyRow } from '../domain/ready';
import type { PayoutsRepositories, ReadyDoc } from '../infra/repositories';
import type { EntryMark } from './ports';

const ATTEMPTS = 10;

/** The ready-for-payout projection (docs/decisions/0074): written by the consumer and by the batches. */
export class ReadyApp {
  constructor(
    private readonly repos: PayoutsRepositories,
    private readonly logger: Logger,
  ) {}

  /** Applies a change when it is newer than the row (highest `rev` wins; older and repeated ones are no-ops). */
  async apply(tenantId: string, change: EntryChange, occurredAt: Date): Promise<void> {
    for (let i = 0; i < ATTEMPTS; i++) {
      const stored = (await this.repos.readyRowOfEntry(change.entryId)) as ReadyRow | null;
      if (stored && stored.tenantId !== tenantId) {
        this.logger.warn({ entryId: change.entryId }, 'entry-state.changed names an entry of another tenant; ignored');
        return;
      }
      const next = applyChange(stored, tenantId, change, occurredAt);
      if (!next) return;
      if (!stored) {
        try {
          await this.repos.ready.of(parseTenantId(tenantId)).create(next);
          return;
        } catch (err) {
          if ((err as { code?: number }).code === 11000) continue; // created meanwhile: decide again
          throw err;
        }
      }
      const { _id, ...fields } = next;
      const res = await this.repos.ready
        .of(parseTenantId(tenantId))
        .updateOne({ _id, rev: stored.rev }, { $set: fields });
      if (res.matchedCount === 1) return;
    }
    throw new Error(`ready projection: entry ${change.entryId} kept changing; will retry`);
  }

  /** What a batch step told us about its entries: applied like the events that will follow. */
  async applyMarks(tenantId: string, marks: readonly EntryMark[], now: Date): Promise<void> {
    for (const m of marks) {
      if (!m.ok || m.rev === undefined || !m.employeeId || m.amountDue === undefined || !m.baseCurrency) continue;
      await this.apply(
        tenantId,
        {
          entryId: m.entryId,
          entryNumber: m.entryNumber ?? '',
          employeeId: m.employeeId,
          status: APPROVED,
          isPaidOut: m.isPaidOut ?? false,
          deleted: false,
          approvedAt: null,
          baseCurrency: m.baseCurrency,
          amountDue: m.amountDue,
          rev: m.rev,
        },
        now,
      );
    }
  }

  list(tenantId: string, page: ListRequest) {
    return listPage<ReadyDoc, ReadyDoc>(
      this.repos.ready.of(parseTenantId(tenantId)),
      { ready: true },
      page,
      { approvedAt: -1, _id: 1 },
      (d) => d,
    );
  }
}
