import { randomUUID } from 'node:crypto';
import { parseTenantId, type Logger, type Metrics } from '@travel/platform';
import { FAILING_AFTER_EXHAUSTED, type NoticeKind } from '../domain/health';
import { DISABLE_AFTER_EXHAUSTED, statusAfter, type Outcome } from '../domain/outcome';
import type { Tier } from '../domain/schedule';
import type { OutcomeWriter } from '../infra/outcome-writer';
import type { DeliveryDoc, DispatcherRepositories, SubscriptionDoc } from '../infra/repositories';
import type { SubscriptionCache } from '../infra/subscription-cache';
import { attemptOf, type AttemptOf, type AttemptScheduler } from './schedule';

export interface RecordDeps {
  repos: DispatcherRepositories;
  outcomes: OutcomeWriter;
  subscriptions: SubscriptionCache;
  schedule: AttemptScheduler;
  tiers: Tier[];
  logger: Logger;
  metrics: Metrics;
  /** Sends a health notice just recorded (0229); absent without a mail transport: it stays recorded. */
  notify?: (tenantId: string, subscriptionId: string) => Promise<unknown>;
}

/**
 * An attempt's outcome, recorded: the fields it sets in its delivery row and its line of the attempt log
 * (written by `record`, or in the row the fan-out inserts), then what follows (`recorded`): metrics, the
 * next attempt, the subscription's streak of Exhausted deliveries and its auto-disable.
 */
export class OutcomeRecorder {
  private readonly attemptsTotal;
  private readonly latency;
  private readonly disabledTotal;

  constructor(private readonly deps: RecordDeps) {
    const m = deps.metrics;
    this.attemptsTotal = m.counter('webhook_delivery_attempts_total', 'Webhook delivery attempts by outcome', [
      'outcome',
      'event_type',
    ]);
    this.latency = m.histogram(
      'webhook_delivery_latency_seconds',
      'From the event being raised to a 2xx answer',
      ['event_type'],
      [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 30, 120, 600, 3600, 86400, 172800],
    );
    this.disabledTotal = m.counter(
      'webhook_subscriptions_disabled_total',
      'Subscriptions disabled after consecutive Exhausted deliveries',
    );
  }

  /** Writes the attempt into its row if nobody recorded it first; false when this attempt lost the race. */
  record(row: DeliveryDoc, at: AttemptOf, outcome: Outcome): Promise<boolean> {
    const { set, entry } = this.attemptRecord(at, outcome);
    return this.deps.outcomes.write({
      deliveryId: row._id,
      token: entry.token,
      filter: {
        _id: row._id,
        tenantId: row.tenantId,
        series: at.series,
        attemptsMade: at.attempt - 1,
        status: 'Pending',
      },
      update: { $set: set, $inc: { totalAttempts: 1 }, $push: { attemptLog: entry } },
    });
  }

  /** A new row with its first attempt recorded in it, for the fan-out to insert once (0095). */
  recordedInRow(row: DeliveryDoc, outcome: Outcome): DeliveryDoc {
    const { set, entry } = this.attemptRecord(attemptOf(row, 1), outcome);
    return { ...row, ...set, totalAttempts: row.totalAttempts + 1, attemptLog: [...row.attemptLog, entry] };
  }

  /** What follows a recorded attempt: its metrics, the next attempt, the subscription's streak. */
  async recorded(sub: SubscriptionDoc, row: DeliveryDoc, at: AttemptOf, outcome: Outcome): Promise<void> {
    this.attemptsTotal.inc({ outcome: outcome.kind, event_type: row.eventType });
    switch (outcome.kind) {
      case 'retry':
        return this.deps.schedule.next(at);
      case 'succeeded':
        // A recovered event was raised days ago: its age says nothing about how fast delivery is.
        if (!row.recovered) {
          this.latency.observe({ event_type: row.eventType }, (Date.now() - row.occurredAt.getTime()) / 1000);
        }
        return this.breakStreak(sub);
      case 'exhausted':
        return this.countExhausted(sub);
      case 'failed':
        return;
    }
  }

  private attemptRecord(at: AttemptOf, outcome: Outcome) {
    const now = new Date();
    const tier = this.deps.tiers[at.attempt - 1];
    const { sent } = outcome;
    const statusCode = sent.kind === 'answered' ? sent.statusCode : null;
    return {
      set: {
        status: statusAfter(outcome.kind),
        attemptsMade: at.attempt,
        lastStatusCode: statusCode,
        // The last attempt's answer, even when it had none (a network error): never an older one.
        responseBody: sent.kind === 'answered' ? sent.body : null,
        nextAttemptAt: outcome.kind === 'retry' && tier ? new Date(now.getTime() + tier.ms) : null,
        updatedAt: now,
      },
      entry: {
        series: at.series,
        attempt: at.attempt,
        at: now,
        outcome: outcome.kind,
        statusCode,
        error: sent.kind === 'answered' ? null : sent.error,
        durationMs: 'durationMs' in sent ? sent.durationMs : 0,
        token: randomUUID(),
      },
    };
  }

  /** Only a write when there is a streak to break: a success is the common case and writes are costly. */
  private async breakStreak(sub: SubscriptionDoc): Promise<void> {
    if (!sub.consecutiveExhausted) return;
    const subscriptions = this.deps.repos.subscriptions.of(parseTenantId(sub.tenantId));
    // Healthy again: the next streak of FAILING_AFTER_EXHAUSTED sends a new notice (0229).
    await subscriptions.updateOne(
      { _id: sub._id, consecutiveExhausted: { $ne: 0 } },
      { $set: { consecutiveExhausted: 0, failingSince: null } },
    );
    // A "failing" notice not sent yet is untrue now; a "disabled" one stays (a disabled one gets no success).
    await subscriptions.updateOne({ _id: sub._id, 'pendingNotice.kind': 'failing' }, { $set: { pendingNotice: null } });
    this.deps.subscriptions.invalidate(sub.tenantId);
  }

  /** The notice of a transition, recorded in the write that made it; sent now, or by the job (0229). */
  private recordedNotice(kind: NoticeKind, now: Date) {
    return { pendingNotice: { kind, notBefore: now, attempts: 0 } };
  }

  private sendNotice(sub: SubscriptionDoc): void {
    // Not awaited: the attempt is acknowledged without waiting on SMTP; a send that fails stays recorded.
    void this.deps
      .notify?.(sub.tenantId, sub._id)
      .catch((err: Error) =>
        this.deps.logger.warn({ subscriptionId: sub._id, err: err.message }, 'webhook health notice left to the job'),
      );
  }

  private async countExhausted(sub: SubscriptionDoc): Promise<void> {
    const subscriptions = this.deps.repos.subscriptions.of(parseTenantId(sub.tenantId));
    const after = await subscriptions
      .findOneAndUpdate({ _id: sub._id }, { $inc: { consecutiveExhausted: 1 } }, { new: true })
      .lean();
    this.deps.subscriptions.invalidate(sub.tenantId);
    if (!after || after.consecutiveExhausted < FAILING_AFTER_EXHAUSTED || !after.isActive) return;
    const now = new Date();
    if (after.consecutiveExhausted < DISABLE_AFTER_EXHAUSTED) {
      if (after.failingSince) return;
      // Of the replicas counting this streak, the one whose write finds it not yet failing records the notice.
      const failing = await subscriptions.updateOne(
        { _id: sub._id, isActive: true, failingSince: null, consecutiveExhausted: { $gte: FAILING_AFTER_EXHAUSTED } },
        { $set: { failingSince: now, ...this.recordedNotice('failing', now) } },
      );
      this.deps.subscriptions.invalidate(sub.tenantId);
      if (failing.modifiedCount === 1) this.sendNotice(sub);
      return;
    }
    const disabled = await subscriptions.updateOne(
      { _id: sub._id, isActive: true },
      {
        $set: {
          isActive: false,
          disabledAt: now,
          disabledReason: `${DISABLE_AFTER_EXHAUSTED} consecutive deliveries exhausted all 9 attempts`,
          // Replaces a "failing" notice still unsent: the newer news says it all.
          ...this.recordedNotice('disabled', now),
        },
      },
    );
    this.deps.subscriptions.invalidate(sub.tenantId);
    if (disabled.modifiedCount === 1) {
      this.disabledTotal.inc();
      this.deps.logger.warn({ subscriptionId: sub._id, tenantId: sub.tenantId }, 'webhook subscription disabled');
      this.sendNotice(sub);
    }
  }
}
