// Health notices (issue 40 §2, docs/decisions/0229), through the gateway with two dispatcher replicas:
// the 3rd Exhausted delivery in a row (not the 2nd) makes the subscription `failing` and sends exactly one
// e-mail to the account owner; a 4th sends none; a success makes it `healthy`, and the next 3 in a row send
// a second one; the 10th in a row disables it and sends the "disabled" one, once.
import { randomUUID } from 'node:crypto';
import { urlEnv } from '@travel/contracts';
import type { RunningService } from '@travel/platform';
import { eventually, SmtpSink } from '@travel/testkit';
import { start as startDispatcher } from '@travel/webhook-dispatcher/src/service';
import { startE2eStack, type E2eStack } from './support/stack';

describe('webhooks: health notices', () => {
  let stack: E2eStack;
  let smtp: SmtpSink;
  let second: RunningService;

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    // Nine attempts in well under a second: a delivery exhausts quickly.
    const settings = { WEBHOOK_RETRY_SCHEDULE: '20ms,20ms,20ms,20ms,20ms,20ms,20ms,20ms', RATE_LIMIT_BURST: '5000' };
    stack = await startE2eStack('hook-health', settings, { dispatcherEnv: { SMTP_URL: smtp.url } });
    // A second replica on the same queues and store: each notice must still go out once.
    second = await startDispatcher({
      ...process.env,
      ...stack.env.vars,
      ...urlEnv({ employees: stack.employees.url }),
      SMTP_URL: smtp.url,
    });
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
    await smtp?.stop();
  });

  it('one e-mail per transition to the account owner; health says failing, healthy, disabled', async () => {
    const { api, employeeId } = await stack.tenant('CZ');
    const ownerEmail = `owner-${randomUUID()}@example.cz`;
    const owner = (await api.get(`/api/v1/employees/${employeeId}`)).body;
    expect((await api.put(`/api/v1/employees/${employeeId}`, { ...owner, email: ownerEmail })).status).toBe(200);

    let up = false;
    const receiver = (await stack.receiver()).replyWith(() => (up ? { status: 200 } : { status: 503 }));
    const created = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    expect(created.status).toBe(201);
    expect(created.body.health).toEqual({
      status: 'healthy',
      consecutiveExhausted: 0,
      since: null,
      lastNoticeAt: null,
    });
    const id = created.body.id;
    const sub = async () => (await api.get(`/api/v1/webhooks/${id}`)).body;
    const mails = () => smtp.messages.filter((m) => m.to.includes(ownerEmail));
    let hired = 0;
    const hire = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const res = await api.post('/api/v1/employees', { firstName: 'Health', lastName: `Check${hired++}` });
        expect(res.status).toBe(201);
      }
    };
    /** Waits until the subscription's streak is `n` with every delivery so far settled. */
    const streakIs = (n: number) =>
      eventually(async () => {
        const page = (await api.get(`/api/v1/webhooks/${id}/deliveries?pageSize=100`)).body.items;
        if (page.length < hired || page.some((d: any) => d.status === 'Pending')) return undefined;
        const s = await sub();
        return s.consecutiveExhausted === n ? s : undefined;
      }, 30_000);

    // Two Exhausted in a row: still healthy.
    await hire(2);
    expect((await streakIs(2)).health).toMatchObject({ status: 'healthy', consecutiveExhausted: 2, since: null });

    // The 3rd: failing, and one e-mail (were one sent at the 2nd, there would be two now).
    await hire(1);
    const [failing] = await eventually(async () => (mails().length ? mails() : undefined), 30_000);
    expect(failing!.subject).toContain('Webhook failing');
    expect(failing!.raw).toContain(id);
    const third = await eventually(async () => ((await sub()).health.lastNoticeAt ? sub() : undefined));
    expect(third.health).toEqual({
      status: 'failing',
      consecutiveExhausted: 3,
      since: expect.any(String),
      lastNoticeAt: expect.any(String),
    });
    expect(Date.parse(third.health.lastNoticeAt)).toBeGreaterThanOrEqual(Date.parse(third.health.since));

    // A 4th keeps it failing without a new e-mail; a success makes it healthy.
    await hire(1);
    expect((await streakIs(4)).health).toMatchObject({ status: 'failing', since: third.health.since });
    up = true;
    await hire(1);
    const healthy = await streakIs(0);
    expect(healthy.health).toMatchObject({ status: 'healthy', consecutiveExhausted: 0, since: null });
    expect(healthy.health.lastNoticeAt).toBe(third.health.lastNoticeAt);

    // Failing again after the recovery: a second e-mail, the marker that the 4th sent none.
    up = false;
    await hire(3);
    await eventually(async () => (mails().length >= 2 ? true : undefined), 30_000);
    expect((await streakIs(3)).health.status).toBe('failing');
    expect(mails().map((m) => m.subject.split(':')[0])).toEqual(['Webhook failing', 'Webhook failing']);

    // Seven more make ten in a row: disabled, and the "disabled" e-mail, once.
    await hire(7);
    const disabled = await eventually(async () => {
      const s = await sub();
      return s.IsActive === false && s.health.lastNoticeAt !== third.health.lastNoticeAt && mails().length >= 3
        ? s
        : undefined;
    }, 60_000);
    expect(disabled.health).toMatchObject({ status: 'disabled', consecutiveExhausted: 10, since: disabled.DisabledAt });
    expect(mails().map((m) => m.subject.split(':')[0])).toEqual([
      'Webhook failing',
      'Webhook failing',
      'Webhook disabled',
    ]);
    expect(mails().every((m) => m.to.length === 1)).toBe(true);
  }, 180_000);
});
