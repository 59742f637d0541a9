// The daily reminder job of the vehicles' deadlines (docs/decisions/0034): what the deadlines use case
// schedules (`nextReminderOn`), this job sends, once per period across the replicas (a lease, 0218).
import { parseTenantId, type Logger, type PeriodicJob } from '@travel/platform';
import { reminderMessage, remindedForOf, type Deadline } from '../domain/deadline';
import type { Mailer } from '@travel/platform';
import type { FleetRepositories } from '../infra/repositories';
import type { EmployeeDirectory } from './employee-directory';

/** `yyyy-MM-dd` of an instant in UTC. */
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The daily reminder job: every deadline whose reminder day has come gets one e-mail to its recipients.
 * Each deadline is claimed with a conditional write before sending (several replicas never send the
 * same reminder twice); a failed send gives the claim back, so the next run retries it.
 */
export class ReminderJob {
  constructor(
    private readonly repos: FleetRepositories,
    private readonly employees: EmployeeDirectory,
    private readonly mailer: Mailer,
    private readonly logger: Logger,
  ) {}

  /** Sends what is due on `now`'s day (UTC); returns how many reminders went out. */
  async run(now = new Date()): Promise<number> {
    const today = dayOf(now);
    let sent = 0;
    const due = await this.repos.dueDeadlines(today, 500);
    for (const d of due) {
      // Each due deadline names its company (a stored record: a trusted seam); the rest is that tenant's.
      const deadlines = this.repos.deadlines.of(parseTenantId(d.tenantId));
      const claimed = await deadlines.updateOne(
        { _id: d._id, nextReminderOn: d.nextReminderOn },
        // editedAt moves with the reminder's marks, which the deadline shows: a delta sync lists it (0159).
        { $set: { nextReminderOn: null, remindedFor: remindedForOf(d), lastReminderSentAt: now, editedAt: now } },
      );
      if (claimed.matchedCount === 0) continue;
      try {
        if (await this.send(d, today)) sent++;
      } catch (err) {
        this.logger.warn({ deadlineId: d._id, err: (err as Error).message }, 'reminder not sent; will retry');
        await deadlines.updateOne(
          { _id: d._id, nextReminderOn: null, remindedFor: remindedForOf(d) },
          {
            $set: {
              nextReminderOn: d.nextReminderOn,
              remindedFor: d.remindedFor,
              lastReminderSentAt: d.lastReminderSentAt,
              editedAt: new Date(),
            },
          },
        );
      }
    }
    return sent;
  }

  private async send(d: Deadline, today: string): Promise<boolean> {
    const vehicle = await this.repos.vehicles.of(parseTenantId(d.tenantId)).get(d.vehicleId);
    if (!vehicle) return false; // the vehicle is gone; nothing to remind of
    const contacts = await Promise.all(d.remindEmployeeIds.map((id) => this.employees.contact(d.tenantId, id)));
    const to = contacts.filter((c) => c?.email && !c.isArchived).map((c) => c!.email!);
    if (!to.length) {
      this.logger.info({ deadlineId: d._id }, 'reminder has no recipient with an e-mail address');
      return false;
    }
    await this.mailer.send({ to, ...reminderMessage(d, vehicle, today) });
    return true;
  }
}

/** The job once per `intervalMs` (hourly by default: a reminder goes out within an hour of its day starting). */
export const remindersJob = (job: ReminderJob, intervalMs: number): PeriodicJob => ({
  name: 'deadline reminders',
  everyMs: intervalMs,
  run: () => job.run(),
});
