// A health notice is recorded with its transition and not lost when it cannot be sent (decision 0229):
// without a mail transport it stays recorded; a failed send backs off 1 minute and the job sends it once
// it is due; two replicas sending at the same moment send it once.
import type { Mail, Mailer } from '@travel/platform';
import { eventually } from '@travel/testkit';
import { HealthNotices } from '../src/app/health-notices';
import { dispatcherRepositories } from '../src/infra/repositories';
import { startHarness, type Harness } from './support/harness';

describe('webhook health notices: recorded, retried, sent once', () => {
  let h: Harness;
  beforeAll(async () => {
    // No SMTP_URL here: the dispatcher records notices and sends none.
    h = await startHarness('health-notices', { WEBHOOK_RETRY_SCHEDULE: '20ms,20ms,20ms,20ms,20ms,20ms,20ms,20ms' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const owners = {
    accountOwners: async () => ['owner-1', 'owner-2'],
    contact: async (_t: string, id: string) => ({ email: `${id}@example.si`, isArchived: false }),
  };
  /** A mail transport that refuses the first `failures` sends, and keeps the rest. */
  const mailer = (failures: number) => {
    const sent: Mail[] = [];
    let refused = 0;
    const m: Mailer = {
      send: async (mail) => {
        if (refused++ < failures) throw new Error('421 try later');
        sent.push(mail);
      },
    };
    return { m, sent };
  };

  it('keeps the notice of the 3rd Exhausted delivery until a send succeeds, then clears it once', async () => {
    const r = (await h.receiver()).replyAlways({ status: 503 });
    const s = await h.register(r.url);
    for (let i = 0; i < 3; i++) await h.publish();
    await h.settled(s.id, 3, 20_000);
    const sub = async () => (await h.api('GET', `/api/v1/webhooks/${s.id}`)).body;
    const failing = await eventually(async () => {
      const x = await sub();
      return x.health.status === 'failing' ? x : undefined;
    });
    expect(failing.health).toMatchObject({ consecutiveExhausted: 3, lastNoticeAt: null });

    const repos = dispatcherRepositories(h.dispatcher.deps.mongo);
    const logger = h.dispatcher.deps.logger;
    const now = new Date();
    // Recorded at once (due now), unsent without a transport.
    expect((await repos.dueHealthNotices(now, 100)).map((d) => d._id)).toContain(s.id);

    // The first send is refused: retried no sooner than a minute later, nothing lost.
    const flaky = mailer(1);
    const notices = new HealthNotices(repos, owners, flaky.m, logger);
    expect(await notices.send(h.tenantId, s.id, now)).toBe(false);
    expect((await repos.dueHealthNotices(new Date(now.getTime() + 59_000), 100)).map((d) => d._id)).not.toContain(s.id);
    expect((await sub()).health.lastNoticeAt).toBeNull();

    // A minute on, two replicas' jobs at once: one e-mail, to both owners.
    const later = new Date(now.getTime() + 61_000);
    const other = new HealthNotices(repos, owners, flaky.m, logger);
    await Promise.all([notices.sendDue(later), other.sendDue(later)]);
    expect(flaky.sent).toHaveLength(1);
    expect(flaky.sent[0]!.to).toEqual(['owner-1@example.si', 'owner-2@example.si']);
    expect(flaky.sent[0]!.subject).toBe(`Webhook failing: ${r.url}`);
    expect((await sub()).health).toMatchObject({ status: 'failing', lastNoticeAt: expect.any(String) });
    expect(await notices.sendDue(new Date(later.getTime() + 3_600_000))).toBe(0);
    expect(flaky.sent).toHaveLength(1);
  });
});
