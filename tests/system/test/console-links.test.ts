// Issue 35 §1 in a browser: the console cannot be steered by a link (docs/decisions/0193). Headless
// Chromium on the gateway's /console/, signed in with a company owner's key, against the whole payouts
// stack: a crafted link that once made the page fetch a payout batch's payment file shows "not found" and
// sends nothing outside the console's own operations; the cookie reaches nothing else and needs the CSRF
// token on reads too; after sign-out, a copy of the cookie taken before is dead on every gateway replica.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ConsoleSessionsClient } from '@travel/contracts';
import { internalTransports, privateKeyFromText } from '@travel/platform';
import { consoleMayReach } from '@travel/gateway/src/http/console/reach';
import { start as startGateway } from '@travel/gateway/src/service';
import { VALID, employee } from '@travel/employees/test/support/org-fixtures';
import { eventually } from '@travel/testkit';
import { startPayoutsStack, type PayoutsStack } from './support/payouts-stack';
import type { TestTenant } from './support/stack-parts';
import { submit, untilReady } from './support/ready-entries';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** How long a gateway replica trusts a live session (API_KEY_CACHE_MS): short, so the test waits little. */
const CACHE_MS = 300;

describe('the console cannot be steered by a link', () => {
  let stack: PayoutsStack;
  let t: TestTenant;
  let batch: any;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Every request the console's pages made: `METHOD path`. */
  const requested: string[] = [];

  /** A bank-transfer batch of one approved entry, whose payee has an IBAN: it has a payment file. */
  async function bankTransferBatch() {
    const payee = await employee(t.api, { firstName: 'Jan', lastName: 'Novák', ...VALID.CZ });
    const entry = await t.api.post('/api/v1/travel-entries', {
      employeeId: payee.id,
      departureDate: '2026-11-16',
      returnDate: '2026-11-18',
      currencyCode: 'CZK',
      expenses: [{ kind: 'Other', date: '2026-11-17', amount: 120, currencyCode: 'CZK', description: 'Hotel' }],
    });
    expect(entry.status).toBe(201);
    await submit(t.client, entry.body.id);
    await untilReady(t.client, [entry.body.id]);
    const created = await t.api.post('/api/v1/payouts', { payoutMethod: 'BankTransfer', entryIds: [entry.body.id] });
    expect(created.status).toBe(201);
    return created.body;
  }

  const watch = (p: Page) =>
    p.on('request', (req) => {
      const url = new URL(req.url());
      requested.push(`${req.method()} ${url.pathname}`);
    });

  /** The page shows the view of its address (not an older one): the console marks it when drawn. */
  const drawn = (p: Page) =>
    p.waitForFunction(
      () => (globalThis as any).document.getElementById('view').dataset.shown === (globalThis as any).location.hash,
    );

  beforeAll(async () => {
    stack = await startPayoutsStack('console-links', { API_KEY_CACHE_MS: String(CACHE_MS) });
    t = await stack.tenant('CZ');
    batch = await bankTransferBatch();
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/bootstrap.sh`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
      env: { ...process.env, TZ: 'UTC' },
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-GB' });
    page = await context.newPage();
    watch(page);
    await page.goto(`${stack.gateway.url}/console/`);
    await page.getByLabel('API key').fill(t.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Webhook subscriptions' }).waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('a crafted link shows "not found", sends no request outside the console’s operations, and leaves the batch as it was', async () => {
    const before = (await t.api.get(`/api/v1/payouts/${batch.id}`)).body;
    const crafted =
      `${stack.gateway.url}/console/#/subscriptions/..%2Fpayouts%2F${batch.id}%2Fpayment-file` +
      `%3FdebtorIban%3D${VALID.CZ.bankAccount}%26executionDate%3D2026-11-24%23`;
    // Also the other shapes: a delivery id that is a path, and a malformed escape.
    const others = [
      `${stack.gateway.url}/console/#/subscriptions/${batch.id}/deliveries/..%2F..%2F..%2Fpayouts%2F${batch.id}`,
      `${stack.gateway.url}/console/#/subscriptions/%E0%A4%A`,
    ];
    for (const link of [crafted, ...others]) {
      requested.length = 0;
      const opened = await context.newPage();
      watch(opened);
      try {
        await opened.goto(link);
        await drawn(opened);
        expect(await opened.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
      } finally {
        await opened.close();
      }
      const api = requested.filter((r) => r.split(' ')[1]!.startsWith('/api/'));
      expect(api.filter((r) => !consoleMayReach(r.split(' ')[0]!, r.split(' ')[1]!))).toEqual([]);
      expect(api.filter((r) => r.includes('/payouts'))).toEqual([]);
      // The page asked only for its session, its settings and the company's name.
      expect(requested.filter((r) => /^\w+ \/(api\/|console\/session$|console\/config\.json$)/.test(r)).sort()).toEqual(
        ['GET /api/v1/company', 'GET /console/config.json', 'GET /console/session'].sort(),
      );
    }
    // The batch is untouched: as it was, and it can still be undone.
    expect((await t.api.get(`/api/v1/payouts/${batch.id}`)).body).toEqual(before);
    expect(before).toMatchObject({ sentToBank: null, deletableUntil: expect.any(String) });
  });

  /** A fetch made by the signed-in page itself (its cookie), with or without the session's token. */
  const fromPage = (path: string, init: { method?: string; token?: boolean } = {}) =>
    page.evaluate(
      async ({ path, method, token }) => {
        const { fetch } = globalThis as any;
        const session = await (await fetch('/console/session')).json();
        const headers: Record<string, string> = token ? { 'x-csrf-token': session.csrfToken } : {};
        const res = await fetch(path, { method, headers });
        return { status: res.status, body: await res.json().catch(() => null) };
      },
      { path, method: init.method ?? 'GET', token: init.token ?? true },
    );

  it('a cookie request to an operation the console does not use is refused before it reaches a service', async () => {
    expect((await fromPage('/api/v1/webhooks')).status).toBe(200);
    for (const [method, path] of [
      ['GET', `/api/v1/payouts/${batch.id}/payment-file?debtorIban=${VALID.CZ.bankAccount}`],
      ['POST', `/api/v1/payouts/${batch.id}/sent-to-bank`],
      ['DELETE', `/api/v1/payouts/${batch.id}`],
      ['GET', '/api/v1/employees'],
    ] as const) {
      const res = await fromPage(path, { method });
      expect([method, path, res.status, res.body?.code]).toEqual([method, path, 403, 'FORBIDDEN']);
    }
    // Nothing happened to the batch: it can still be undone (after this, by the key, not the cookie).
    const read = (await t.api.get(`/api/v1/payouts/${batch.id}`)).body;
    expect(read).toMatchObject({ sentToBank: null, deletableUntil: expect.any(String) });
  });

  it('a cookie GET without the session’s CSRF token is refused', async () => {
    const res = await fromPage('/api/v1/webhooks', { token: false });
    expect([res.status, res.body?.code]).toEqual([403, 'FORBIDDEN']);
    expect(res.body.detail).toMatch(/x-csrf-token/);
  });

  it('after sign-out, a copy of the cookie taken before is refused, on this gateway and on another replica', async () => {
    // A second gateway replica over the same services and signing key, as the chart runs several.
    const other = await startGateway({
      ...process.env,
      ...stack.env.vars,
      EMPLOYEES_URL: stack.employees.url,
      ENTRIES_URL: stack.entries.url,
      PAYOUTS_URL: stack.payouts.url,
    });
    try {
      const [cookie] = (await context.cookies()).filter((c) => c.name === 'te_console');
      const copy = `${cookie!.name}=${cookie!.value}`;
      const session = await (await fetch(`${stack.gateway.url}/console/session`, { headers: { cookie: copy } })).json();
      const read = (base: string) =>
        fetch(`${base}/api/v1/company`, { headers: { cookie: copy, 'x-csrf-token': (session as any).csrfToken } });
      // The copy works on both replicas while the session lives (the other one now remembers it as live).
      expect([(await read(stack.gateway.url)).status, (await read(other.url)).status]).toEqual([200, 200]);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      expect(await context.cookies()).toEqual([]);

      // The replica that signed out refuses the copy at once; the other within its window (API_KEY_CACHE_MS).
      const here = await read(stack.gateway.url);
      expect([here.status, ((await here.json()) as any).detail]).toEqual([
        401,
        'The console session has ended; sign in again.',
      ]);
      await eventually(async () => (await read(other.url)).status === 401, 10 * CACHE_MS + 5000);
      for (const base of [stack.gateway.url, other.url])
        expect((await fetch(`${base}/console/session`, { headers: { cookie: copy } })).status).toBe(401);
    } finally {
      await other.stop();
    }
  });

  it('the session store answers the gateway only: another service can neither end nor read a session', async () => {
    const key = privateKeyFromText(stack.env.vars.INTERNAL_SIGNING_KEY!);
    const asPayouts = internalTransports('payouts', key)('employees', stack.employees.url, 5000);
    for (const [method, path] of [
      ['GET', '/console-sessions/AAAAAAAAAAAAAAAAAAAAAA'],
      ['DELETE', '/console-sessions/AAAAAAAAAAAAAAAAAAAAAA'],
    ] as const) {
      const res = await asPayouts.send(method, path);
      expect([method, res.status, ((await res.json()) as any).code]).toEqual([method, 403, 'FORBIDDEN']);
    }
    // The gateway's own client reads the same id as simply not live.
    const asGateway = new ConsoleSessionsClient(internalTransports('gateway', key)('employees', stack.employees.url));
    expect(await asGateway.isLive('AAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
  });
});
