// The health notices of issue 40 §2 (docs/decisions/0229): the transition that makes a subscription
// failing or disabled records its notice in the subscription in the same conditional write, so of several
// replicas one records it and the notice goes out once per transition; this sends what is recorded.
import { parseTenantId, type Logger, type Mailer, type PeriodicJob } from '@travel/platform';
import { noticeBackoffMs, noticeMessage, type NoticeKind } from '../domain/health';
import type { DispatcherRepositories } from '../infra/repositories';

/** How long a replica sending a notice holds it: one that dies mid-send leaves it to the job after that. */
const SEND_HOLD_MS = 5 * 60_000;

/** The e-mail addresses of a company's active account owners (the employees service knows them). */
export interface AccountOwnerAddresses {
  accountOwners(tenantId: string): Promise<string[]>;
  contact(tenantId: string, employeeId: string): Promise<{ email: string | null; isArchived: boolean } | null>;
}

export class HealthNotices {
  constructor(
    private readonly repos: DispatcherRepositories,
    private readonly owners: AccountOwnerAddresses,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
  ) {}

  /**
   * Sends the subscription's recorded notice if it is due and no other replica holds it: claimed by a
   * conditional write, cleared once sent; a failed send backs off and the job tries it again.
   */
  async send(tenantId: string, subscriptionId: string, now = new Date()): Promise<boolean> {
    const subscriptions = this.repos.subscriptions.of(parseTenantId(tenantId));
    const claimed = await subscriptions
      .findOneAndUpdate(
        { _id: subscriptionId, deletedAt: null, 'pendingNotice.notBefore': { $lte: now } },
        {
          $set: { 'pendingNotice.notBefore': new Date(now.getTime() + SEND_HOLD_MS) },
          $inc: { 'pendingNotice.attempts': 1 },
        },
        { new: true },
      )
      .lean();
    const notice = claimed?.pendingNotice;
    if (!claimed || !notice) return false;
    // Only this claim of this notice: a newer transition (disabled after failing) keeps its own.
    const mine = { _id: subscriptionId, 'pendingNotice.kind': notice.kind, 'pendingNotice.attempts': notice.attempts };
    try {
      const to = await this.addresses(tenantId);
      if (to.length) await this.mailer.send({ to, ...noticeMessage(notice.kind, claimed) });
      else
        this.logger.info(
          { subscriptionId, kind: notice.kind },
          'webhook health notice has no recipient with an e-mail address',
        );
      await subscriptions.updateOne(mine, { $set: { pendingNotice: null, lastNoticeAt: new Date() } });
      return to.length > 0;
    } catch (err) {
      const retryAt = new Date(now.getTime() + noticeBackoffMs(notice.attempts));
      this.logger.warn(
        { subscriptionId, kind: notice.kind, retryAt, err: (err as Error).message },
        'webhook health notice not sent; will retry',
      );
      await subscriptions.updateOne(mine, { $set: { 'pendingNotice.notBefore': retryAt } });
      return false;
    }
  }

  /** Sends every due notice (the job: failed sends, and those a replica stopped before sending). */
  async sendDue(now = new Date()): Promise<number> {
    let sent = 0;
    for (const due of await this.repos.dueHealthNotices(now, 100))
      if (await this.send(due.tenantId, due._id, now)) sent++;
    return sent;
  }

  private async addresses(tenantId: string): Promise<string[]> {
    const ids = await this.owners.accountOwners(tenantId);
    const contacts = await Promise.all(ids.map((id) => this.owners.contact(tenantId, id)));
    return [...new Set(contacts.filter((c) => c?.email && !c.isArchived).map((c) => c!.email!))];
  }
}

/** Notices not sent at their transition, once per `everyMs` across the replicas (a lease, 0218). */
export const healthNoticesJob = (notices: HealthNotices, everyMs: number): PeriodicJob => ({
  name: 'webhook health notices',
  everyMs,
  run: () => notices.sendDue(),
});

export type { NoticeKind };
