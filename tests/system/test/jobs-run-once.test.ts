// Scheduled jobs run once per period across replicas (issue 38 §3, decision 0218): two fleet replicas
// send one reminder e-mail per due deadline and run the reminder job at most once per period; two
// reference-fx replicas fetch each feed once per import period, and a replica killed mid-import holds
// the lease only until it expires: the job runs on another replica in the next period.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { urlEnv } from '@travel/contracts';
import type { RunningService } from '@travel/platform';
import { start as startFleet } from '@travel/fleet/src/service';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { employee, unique } from '@travel/employees/test/support/org-fixtures';
import { childPorts, createTestEnv, eventually, repoRoot, type TestEnv } from '@travel/testkit';
import { startFleetStack, type FleetStack } from './support/fleet-stack';

/** A replica's count of one scheduled-job metric (`scheduled_job_runs_total` or `…_skips_total`), all labels summed. */
async function jobCount(service: RunningService, metric: string, job: string): Promise<number> {
  const values = (await service.deps.metrics.registry.getSingleMetric(metric)!.get()).values;
  return values.filter((v) => v.labels.job === job).reduce((n, v) => n + v.value, 0);
}
const completedRuns = async (service: RunningService, job: string) => {
  const values = (await service.deps.metrics.registry.getSingleMetric('scheduled_job_runs_total')!.get()).values;
  return values.find((v) => v.labels.job === job && v.labels.outcome === 'completed')?.value ?? 0;
};
/** Every tick of the job in this replica: a run (completed or failed) or a skip. */
const ticks = async (service: RunningService, job: string) =>
  (await jobCount(service, 'scheduled_job_runs_total', job)) +
  (await jobCount(service, 'scheduled_job_skips_total', job));

const day = (offset: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

describe('deadline reminders with two fleet replicas', () => {
  const PERIOD_MS = 300;
  let stack: FleetStack;
  let second: RunningService;

  beforeAll(async () => {
    stack = await startFleetStack('jobs-once-fleet', { REMINDER_INTERVAL_MS: String(PERIOD_MS) });
    // The second replica: the same databases, vhost and SMTP server as the first.
    second = await startFleet({
      SMTP_URL: stack.smtp.url,
      ...process.env,
      ...stack.env.vars,
      REMINDER_INTERVAL_MS: String(PERIOD_MS),
      ...urlEnv({ employees: stack.employees.url }),
    });
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  it('one e-mail per due deadline, and the job runs at most once per period across both', async () => {
    const { api } = await stack.tenant('HR');
    const vehicleId = (
      await api.post('/api/v1/vehicles', { type: 'Company', name: 'Van', licensePlate: unique('ZG-'), category: 1 })
    ).body.id;
    const replicas = [stack.fleet, second];
    const runsOf = async () =>
      (await completedRuns(replicas[0]!, 'deadline reminders')) +
      (await completedRuns(replicas[1]!, 'deadline reminders'));
    const startedAt = Date.now();
    const runsBefore = await runsOf();
    // Three deadlines due in 5 days, reminded 14 days before: each is due for its reminder today.
    const emails: string[] = [];
    for (const kind of ['TechnicalInspection', 'Insurance', 'Registration']) {
      const email = `${unique('fleet-once')}@example.com`;
      emails.push(email);
      const recipient = await employee(api, { email });
      const created = await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, {
        kind,
        dueDate: day(5),
        remindEmployeeIds: [recipient.id],
        remindDaysBefore: 14,
      });
      expect(created.status).toBe(201);
    }
    const mailsTo = (address: string) => stack.smtp.messages.filter((m) => m.to.includes(address));
    await eventually(async () => emails.every((e) => mailsTo(e).length > 0), 20_000);
    // The marker that nothing more happens: both replicas have ticked through six more periods.
    const ticksOf = async () =>
      (await ticks(replicas[0]!, 'deadline reminders')) + (await ticks(replicas[1]!, 'deadline reminders'));
    const ticked = await ticksOf();
    await eventually(async () => (await ticksOf()) >= ticked + 12, 20_000);
    const endedAt = Date.now();
    expect(emails.map((e) => mailsTo(e).length)).toEqual([1, 1, 1]);
    // At most one completed run per 300 ms period between the two readings (each replica ticks in every one).
    const periods = Math.floor(endedAt / PERIOD_MS) - Math.floor(startedAt / PERIOD_MS) + 1;
    expect((await runsOf()) - runsBefore).toBeLessThanOrEqual(periods);
    // Both replicas tick, so about as many ticks were skips as were runs.
    const skips =
      (await jobCount(replicas[0]!, 'scheduled_job_skips_total', 'deadline reminders')) +
      (await jobCount(replicas[1]!, 'scheduled_job_skips_total', 'deadline reminders'));
    expect(skips).toBeGreaterThan(0);
  });
});

/** The four providers' feeds over HTTP, counting the requests of each; can hold the next request unanswered. */
class FeedServer {
  readonly requests: Record<string, number> = { hnb: 0, ecb: 0, cnb: 0, nbp: 0 };
  private server?: Server;
  private held: ServerResponse[] = [];
  private holdNext?: () => void;
  private readonly bodies: Record<string, string>;

  constructor() {
    const fixture = (...p: string[]) =>
      readFileSync(join(repoRoot(), 'services', 'reference-fx', 'test', 'fixtures', ...p), 'utf8');
    this.bodies = {
      hnb: fixture('daily', 'hnb-tecajn-eur-v3-2026-11-20.json'),
      ecb: fixture('daily', 'ecb-eurofxref-daily.xml'),
      cnb: fixture('feeds', 'cnb-denni_kurz-2026-11-11.txt'),
      nbp: fixture('daily', 'nbp-table-A-2026-11-20.json'),
    };
  }

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const feed = (req.url ?? '').slice(1);
      this.requests[feed] = (this.requests[feed] ?? 0) + 1;
      if (this.holdNext) {
        this.held.push(res);
        this.holdNext();
        this.holdNext = undefined;
        return;
      }
      res.end(this.bodies[feed]);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }

  /** Resolves when the next request arrives; that request is never answered. */
  holdTheNext(): Promise<void> {
    return new Promise((resolve) => (this.holdNext = resolve));
  }

  get env(): Record<string, string> {
    const base = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return {
      FX_HNB_URL: `${base}/hnb`,
      FX_ECB_URL: `${base}/ecb`,
      FX_CNB_URL: `${base}/cnb`,
      FX_NBP_URL: `${base}/nbp`,
    };
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

describe('the FX import with two reference-fx replicas and one killed mid-import', () => {
  const JOB = 'FX import';
  let env: TestEnv;
  let feeds: FeedServer;
  let killed: ChildProcess | undefined;
  const replicas: RunningService[] = [];

  beforeAll(async () => {
    env = await createTestEnv('jobs-once-fx');
    feeds = await new FeedServer().start();
  });
  afterAll(async () => {
    killed?.kill('SIGKILL');
    for (const r of replicas) await r.stop();
    await feeds?.stop();
    await env?.cleanup();
  });

  // The period is a minute (FX_IMPORT_INTERVAL_MINUTES' least): the test waits for the next one.
  const fxEnv = () => ({
    ...process.env,
    ...env.vars,
    ...feeds.env,
    FX_IMPORT_ENABLED: 'true',
    FX_IMPORT_INTERVAL_MINUTES: '1',
    FX_IMPORT_RETRIES: '0',
    FX_IMPORT_TIMEOUT_MS: '120000',
    JOB_LEASE_MS: '1500',
  });

  it('each feed is fetched once per period; a killed holder loses the lease and the next period runs on another replica', async () => {
    // Replica A in a process of its own takes the lease and hangs on its first feed (HNB).
    const held = feeds.holdTheNext();
    const ports = await childPorts();
    killed = spawn('node', ['--import', 'tsx', join(repoRoot(), 'services', 'reference-fx', 'src', 'main.ts')], {
      cwd: repoRoot(),
      env: { ...fxEnv(), ...ports.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    killed.stderr!.on('data', (d) => process.stderr.write(`[reference-fx child] ${d}`));
    await held;
    // Replicas B and C start while A holds the lease: each one's tick at start is a skip.
    replicas.push(await startReferenceFx(fxEnv()), await startReferenceFx(fxEnv()));
    for (const r of replicas) await eventually(async () => (await ticks(r, JOB)) >= 1, 10_000);
    expect(await Promise.all(replicas.map((r) => completedRuns(r, JOB)))).toEqual([0, 0]);
    expect(feeds.requests).toEqual({ hnb: 1, ecb: 0, cnb: 0, nbp: 0 });

    // A dies mid-run (SIGKILL: no give-back). Its lease expires 1.5 s after its last renewal.
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed!.once('exit', resolve));
    killed = undefined;
    const ticksAtKill = await Promise.all(replicas.map((r) => ticks(r, JOB)));
    // At the start of the next minute whose tick finds the lease expired, one of B and C runs the import.
    await eventually(
      async () => (await completedRuns(replicas[0]!, JOB)) + (await completedRuns(replicas[1]!, JOB)) === 1,
      150_000,
      250,
    );
    // The marker: the other replica ticked at the same period's start as the one that ran (a skip).
    const since = async () =>
      (await Promise.all(replicas.map((r) => ticks(r, JOB)))).map((n, i) => n - ticksAtKill[i]!);
    await eventually(async () => {
      const [b, c] = await since();
      return b === c && b! > 0;
    }, 10_000);
    // Each feed once in that period; HNB's count includes the fetch A died in.
    expect(feeds.requests).toEqual({ hnb: 2, ecb: 1, cnb: 1, nbp: 1 });
  }, 200_000);
});
