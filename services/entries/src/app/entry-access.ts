// Who may read and who may change a travel entry, over the entries repository (docs/decisions/0168): the
// entries app and every use case on an entry's children (expenses, attachments, per-diems, the workflow,
// the documents) ask here, so none of them depends on another use case's module.
import { forbidden, invalidState, notFound, tenantOf, type CallerContext } from '@travel/platform';
import { EDIT_ALL_ENTRIES, mayEdit, mayRead } from '../domain/access';
import { isLocked } from '../domain/entry';
import { isInvolvedApprover } from '../domain/workflow';
import type { EntriesRepositories, EntryDoc } from '../infra/repositories';
import { ClosedPeriodGuard } from './closed-periods';
import type { DelegatorsOf } from './delegators';

export class EntryAccess {
  /** Whether a write may touch the months it touches: closed accounting periods (docs/decisions/0207). */
  readonly periods: ClosedPeriodGuard;

  constructor(
    private readonly repos: Pick<EntriesRepositories, 'entries'> & Partial<Pick<EntriesRepositories, 'periods'>>,
    /** Whose delegate the caller is today: they read the entries their delegators decide now (0205). */
    private readonly delegators?: DelegatorsOf,
  ) {
    this.periods = new ClosedPeriodGuard(repos);
  }

  /**
   * A live entry the caller may read, else 404 (another tenant's, another employee's without ReadAll,
   * deleted). An approver's delegate reads the entries waiting at a step of that approver, during the
   * delegation (asked of the employees context only when nothing else lets the caller read it).
   */
  async readable(caller: CallerContext, rawId: string): Promise<EntryDoc> {
    const doc = await this.repos.entries.of(tenantOf(caller)).get(rawId.toLowerCase());
    if (!doc || doc.deletedAt) throw notFound('travel entry');
    if (mayRead(caller, doc.employeeId) || isInvolvedApprover(doc, caller.employeeId)) return doc;
    const step = doc.approval?.steps[doc.approval.currentStep];
    if (step && this.delegators) {
      const delegators = await this.delegators(caller, new Date());
      if (delegators.some((id) => step.approverIds.includes(id))) return doc;
    }
    throw notFound('travel entry');
  }

  /** A live entry the caller may change: readable, editable by them (403), and not locked (409). */
  async writable(caller: CallerContext, rawId: string): Promise<EntryDoc> {
    const doc = await this.readable(caller, rawId);
    if (!mayEdit(caller, doc.employeeId)) throw forbidden(EDIT_ALL_ENTRIES);
    if (isLocked(doc))
      throw invalidState('The travel entry is locked (submitted, decided or paid out); it cannot be changed.');
    return doc;
  }
}
