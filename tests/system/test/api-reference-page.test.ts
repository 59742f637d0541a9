// The reference page as a partner's browser shows it: the gateway serves Swagger UI from its own
// node_modules and the contract embedded in the page; headless Chromium (the Debian package, installed by
// scripts/bootstrap.sh) renders it with every host but the gateway unreachable, so nothing comes from a CDN.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openApiDocument } from '@travel/contracts';
import { start as startGateway } from '@travel/gateway/src/service';
import { generateSigningKey } from '@travel/platform';
import { repoRoot } from '@travel/testkit';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('the API reference page in a browser', () => {
  const contract = openApiDocument() as any;
  let gw: { url: string; stop(): Promise<void> };
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/bootstrap.sh`);
    // Free ports, the ops port too: its default (9080) is taken by a neighbour file or a running `npm start`.
    gw = await startGateway({
      PORT: '0',
      OPS_PORT: '0',
      INTERNAL_SIGNING_KEY: generateSigningKey().privateKey,
      LOG_LEVEL: 'warn',
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Root on the dev machines and CI needs --no-sandbox; every host but the gateway's fails to resolve.
      args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (req) => requested.push(req.url()));
    await page.goto(`${gw.url}/api-reference/`);
    await page.waitForSelector('.opblock');
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  it('loads everything from the gateway (no CDN, works offline)', () => {
    expect(requested.length).toBeGreaterThan(2);
    for (const url of requested) expect(url.startsWith(`${gw.url}/api-reference/`)).toBe(true);
  });

  it('lists every operation of the contract and every planned one, planned ones under their own tag', async () => {
    const rendered = await page.locator('.opblock-tag-section .opblock').evaluateAll((els) =>
      els.map(
        (el) =>
          // Deprecated operations (the removed ones, answering 410) carry their own path class.
          `${el.querySelector('.opblock-summary-method')?.textContent?.toLowerCase()} ${el.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.getAttribute('data-path')}`,
      ),
    );
    const built = Object.entries<any>(contract.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => `${m} ${path}`),
    );
    const planned = Object.entries<string[]>(contract['x-planned-operations']).flatMap(([path, methods]) =>
      methods.map((m) => `${m} ${path}`),
    );
    expect([...rendered].sort()).toEqual([...built, ...planned].sort());

    // Planned operations (none today: every context is built) render under their own tag, and only then.
    const plannedSection = page.locator('.opblock-tag-section', { has: page.locator('h3[data-tag^="Planned"]') });
    const plannedPaths = Object.keys(contract['x-planned-operations'] ?? {});
    if (plannedPaths.length === 0) expect(await plannedSection.count()).toBe(0);
    else
      expect(await plannedSection.locator('.opblock-summary-path').allTextContents()).toEqual(
        expect.arrayContaining(plannedPaths),
      );
  });

  it('shows an operation with its contract example and a schema with its enum values', async () => {
    const create = page
      .locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/api/v1/vehicles"]') })
      .filter({ has: page.locator('.opblock-summary-method', { hasText: /^POST$/ }) });
    await create.locator('.opblock-summary-control').click();
    const body = await create.locator('.opblock-body').innerText();
    const example = contract.paths['/api/v1/vehicles'].post.requestBody.content['application/json'].examples;
    const first = Object.values<any>(example)[0].value;
    expect(body).toContain(`"licensePlate": "${first.licensePlate}"`);

    // With this many schemas Swagger UI renders the Schemas section as it is scrolled: scroll until it is there.
    const title = page.locator('.models .json-schema-2020-12__title', { hasText: /^VehicleType$/ });
    for (let i = 0; i < 100 && (await title.count()) === 0; i++) {
      await page.locator('.models .json-schema-2020-12').last().scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, 1500);
      await page.waitForTimeout(50);
    }
    const model = page
      .locator('.models .json-schema-2020-12', {
        has: page.locator('.json-schema-2020-12__title', { hasText: /^VehicleType$/ }),
      })
      .first();
    // From 100 schemas on, Swagger UI virtualizes the Schemas section in its own scroller (`.models-scroll`):
    // only the models in view are rendered, so scroll it until this one is.
    const scroller = page.locator('.models-scroll');
    for (let i = 0; i < 400 && (await model.count()) === 0 && (await scroller.count()) > 0; i++) {
      await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight / 2));
      await page.waitForTimeout(25);
    }
    await model.locator('.json-schema-2020-12-expand-deep-button').first().click();
    const values = await model
      .locator('.json-schema-2020-12-keyword--enum .json-schema-2020-12-json-viewer__value')
      .allTextContents();
    expect(values).toEqual(contract.components.schemas.VehicleType.enum.map((v: string) => JSON.stringify(v)));
    await model.scrollIntoViewIfNeeded();
    // For a human look: .local/test/api-reference.png.
    const dir = join(repoRoot(), '.local', 'test');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, 'api-reference.png') });
  });

  it('shows the webhooks the platform pushes', async () => {
    const webhooks = await page.locator('.webhooks .opblock-summary-path').allTextContents();
    expect(webhooks.sort()).toEqual(Object.keys(contract.webhooks).sort());
  });
});
