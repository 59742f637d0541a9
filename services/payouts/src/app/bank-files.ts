// The bank side of a completed BankTransfer batch: its pain.001.001.09 payment file (a read, docs/decisions/
// 0191) and the mark "sent to the bank" that makes it final.
import { checkBankText } from '@travel/money';
import {
  AppError,
  invalidState,
  isCalendarDate,
  parseTenantId,
  throwIfInvalid,
  type CallerContext,
  type FieldErrors,
  type Logger,
} from '@travel/platform';
import { payeeSnapshot, transferred, withoutBankAccount, type BatchPayee, type SentToBank } from '../domain/batch';
import { buildPain001 } from '../domain/pain001';
import type { BatchDoc, PayoutsRepositories } from '../infra/repositories';
import { completedBatch } from './batches';
import type { PayeeDirectory } from './ports';

export interface PaymentFileRequest {
  debtorIban: string;
  debtorBic?: string;
  executionDate?: string;
}

export class BankFilesApp {
  constructor(
    private readonly repos: PayoutsRepositories,
    private readonly payees: PayeeDirectory,
    private readonly logger: Logger,
  ) {}

  /** The batches of a batch's company (a stored record names its tenant). */
  private batchesOf(tenantId: string) {
    return this.repos.batches.of(parseTenantId(tenantId));
  }

  /**
   * The payees a BankTransfer batch's file pays, with a valid IBAN each, or 409: not a BankTransfer batch,
   * nothing transferred, a payee without bank account. The file and the mark "sent to the bank" both ask here.
   */
  private async payeesOfFile(
    b: BatchDoc,
    withCompany = true,
  ): Promise<{ company?: { name: string }; payees: BatchPayee[] }> {
    if (b.payoutMethod !== 'BankTransfer')
      throw invalidState(`A ${b.payoutMethod} batch has no bank payment file; only BankTransfer batches do.`);
    const paid = transferred(b.entries);
    if (!paid.length) throw invalidState('Nothing in this batch is paid to an employee; there is no payment file.');

    // The bank data kept when the batch was made (docs/decisions/0111), never the employee record of today;
    // a batch made before bank data was kept takes it from the records now, as it did then.
    const kept = b.payees?.length ? b.payees : undefined;
    const ids = kept ? [] : [...new Set(paid.map((e) => e.employeeId))];
    // The payer's name comes from employees too; a mark with kept bank data needs nothing from there.
    const read = kept && !withCompany ? undefined : await this.payees.payees(b.tenantId, ids);
    const payees = kept ?? payeeSnapshot(b.entries, read?.payees ?? []);
    const missing = withoutBankAccount(b.entries, payees);
    if (missing.length) {
      const errors: FieldErrors = {};
      for (const i of missing)
        errors[`entries[${i}].employeeId`] = [
          'had no valid bank account (IBAN) on record when the batch was made; add it to the employee, undo the batch and make it again',
        ];
      throw new AppError('INVALID_STATE', 'Some employees of this batch have no bank account on record.', errors);
    }
    return { company: read?.company, payees };
  }

  /**
   * The pain.001.001.09 file of a BankTransfer batch. A read: it changes nothing, the batch stays as it was
   * (undoable until it is marked sent to the bank, docs/decisions/0191).
   */
  async paymentFile(
    caller: CallerContext,
    rawId: string,
    req: PaymentFileRequest,
  ): Promise<{ xml: string; batch: BatchDoc }> {
    // The company's account and bank get the rules an employee's bank data gets (@travel/money, 0119).
    const errors: FieldErrors = {};
    const iban = checkBankText('iban', req.debtorIban);
    if (!iban.ok) errors.debtorIban = [iban.message];
    const bic = req.debtorBic === undefined ? undefined : checkBankText('bic', req.debtorBic);
    if (bic && !bic.ok) errors.debtorBic = [bic.message];
    const executionDate = req.executionDate ?? new Date().toISOString().slice(0, 10);
    if (req.executionDate && !isCalendarDate(req.executionDate))
      errors.executionDate = ['must be a calendar date (yyyy-MM-dd)'];
    throwIfInvalid(errors);
    const b = await completedBatch(this.repos, caller, rawId);
    const { company, payees } = await this.payeesOfFile(b);
    const byId = new Map(payees.map((p) => [p.employeeId, p]));

    const xml = buildPain001({
      messageId: b._id,
      createdAt: new Date(),
      executionDate,
      currency: b.currencyCode,
      debtorName: company!.name,
      debtorIban: iban.ok ? iban.value : '',
      debtorBic: bic?.ok ? bic.value : null,
      transfers: transferred(b.entries).map((e) => {
        const p = byId.get(e.employeeId)!;
        return {
          endToEndId: e.entryNumber || e.entryId,
          amount: e.amountDue,
          creditorName: p.name,
          creditorIban: p.iban!,
          creditorBic: p.bic,
          remittance: `Travel expenses ${e.entryNumber || e.entryId}`,
        };
      }),
    });
    return { xml, batch: b };
  }

  /**
   * Marks a BankTransfer batch sent to the bank (docs/decisions/0191): final from then on (no undo), with
   * who and when kept on the batch. A batch already marked is answered as it is (the first mark stays).
   */
  async markSentToBank(caller: CallerContext, rawId: string): Promise<BatchDoc> {
    const b = await completedBatch(this.repos, caller, rawId);
    if (b.sentToBank) return b;
    await this.payeesOfFile(b, false); // only a batch that has a payment file can have been sent
    const sentToBank: SentToBank = {
      at: new Date(),
      employeeId: caller.employeeId,
      keyIssuedByEmployeeId: caller.keyIssuedByEmployeeId ?? null,
    };
    // Conditional on the batch still being there: an undo racing this mark either came first (404) or fails.
    const res = await this.batchesOf(b.tenantId).updateOne(
      { _id: b._id, state: 'completed', sentToBank: null },
      { $set: { sentToBank }, $inc: { rev: 1 } },
    );
    if (res.matchedCount === 1) {
      this.logger.info(
        { batchId: b._id, employeeId: sentToBank.employeeId, keyIssuedByEmployeeId: sentToBank.keyIssuedByEmployeeId },
        'payout batch marked sent to the bank',
      );
      return { ...b, sentToBank, rev: b.rev + 1 };
    }
    // Another mark came first (answered as it is), or an undo did (404).
    return completedBatch(this.repos, caller, rawId);
  }
}
