import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';
import { isDuplicateKey } from './connection';

/** One scheduled job's lease and the last period it completed, one document per job (docs/decisions/0218). */
interface JobLeaseRow {
  /** The job's name. */
  _id: string;
  /** Who holds the lease: a random id per take, prefixed with the host and pid for the logs. */
  heldBy: string | null;
  /** The lease is free from then on (the epoch when given back): a holder that died loses it here. */
  heldUntil: Date;
  /** Start of the last period the job completed: a later tick in that period skips the job. */
  periodDone: Date;
  /** When a run last completed, for operators (`db.job_leases.find()`). */
  lastRunAt: Date | null;
}

/** A lease taken: the job may run until it is given back or lost. */
export interface HeldLease {
  job: string;
  holder: string;
  period: Date;
}

/** Why a take found nothing to do. */
export type LeaseRefusal = 'done' | 'held';

const FREE = new Date(0);

/**
 * The leases of a service's scheduled jobs, in its own database (`job_leases`). A take is one conditional
 * write (free or expired, and the period not done yet); the document's first insert races on `_id`, and a
 * duplicate key means another replica got there first. Only single-document writes and an insert's unique
 * `_id`: the same on MongoDB and FerretDB (no upsert conflict, whose error differs between them).
 */
export class JobLeases {
  private readonly model: Model<JobLeaseRow>;

  constructor(conn: Connection) {
    this.model =
      (conn.models.JobLease as Model<JobLeaseRow>) ??
      conn.model<JobLeaseRow>(
        'JobLease',
        new Schema<JobLeaseRow>(
          { _id: String, heldBy: String, heldUntil: Date, periodDone: Date, lastRunAt: Date },
          { collection: 'job_leases', versionKey: false },
        ),
      );
  }

  /** Takes `job`'s lease for `leaseMs` unless it is held or `period` (its start) is done already. */
  async take(job: string, period: Date, leaseMs: number, now = new Date()): Promise<HeldLease | LeaseRefusal> {
    const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
    const heldUntil = new Date(now.getTime() + leaseMs);
    const taken = await this.model.updateOne(
      { _id: job, heldUntil: { $lte: now }, periodDone: { $lt: period } },
      { $set: { heldBy: holder, heldUntil } },
    );
    if (taken.matchedCount === 1) return { job, holder, period };
    const row = await this.model.findById(job).lean<JobLeaseRow>();
    if (row) return row.periodDone.getTime() >= period.getTime() ? 'done' : 'held';
    try {
      await this.model.create({ _id: job, heldBy: holder, heldUntil, periodDone: FREE, lastRunAt: null });
      return { job, holder, period };
    } catch (err) {
      if (isDuplicateKey(err)) return 'held';
      throw err;
    }
  }

  /** Extends a lease still held; false when it expired and another replica took it. */
  async renew(lease: HeldLease, leaseMs: number, now = new Date()): Promise<boolean> {
    const res = await this.model.updateOne(
      { _id: lease.job, heldBy: lease.holder },
      { $set: { heldUntil: new Date(now.getTime() + leaseMs) } },
    );
    return res.matchedCount === 1;
  }

  /** Gives the lease back; `completed` records its period as done. False when it was lost meanwhile. */
  async giveBack(lease: HeldLease, completed: boolean, now = new Date()): Promise<boolean> {
    const res = await this.model.updateOne(
      { _id: lease.job, heldBy: lease.holder },
      {
        $set: {
          heldBy: null,
          heldUntil: FREE,
          ...(completed ? { periodDone: lease.period, lastRunAt: now } : {}),
        },
      },
    );
    return res.matchedCount === 1;
  }
}
