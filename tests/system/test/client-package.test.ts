// The typed client as a partner gets it (issue 24 part 3, docs/decisions/0154): `npm run build` in
// packages/client writes JavaScript and declarations with the contract's types beside them, a partner's
// TypeScript compiles against dist/ alone, and the built JavaScript talks to the real gateway.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@travel/testkit';
import { startPayoutsStack, type PayoutsStack } from './support/payouts-stack';

const pkg = join(repoRoot(), 'packages', 'client');
const dist = join(pkg, 'dist');
const tsc = join(repoRoot(), 'node_modules', '.bin', 'tsc');

describe('the client package', () => {
  let stack: PayoutsStack;
  let scratch: string;

  beforeAll(async () => {
    stack = await startPayoutsStack('client-package');
    // Inside the repository, so the partner's compile finds @types/node as a partner's project would.
    const local = join(repoRoot(), '.local', 'test');
    mkdirSync(local, { recursive: true });
    scratch = mkdtempSync(join(local, 'client-package-'));
  });
  afterAll(async () => {
    await stack?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('builds to JavaScript and declarations that a partner compiles against and runs', async () => {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: pkg, encoding: 'utf8' });
    expect({ status: build.status, out: build.stdout + build.stderr }).toEqual({ status: 0, out: '' });
    for (const file of ['index.js', 'index.d.ts', 'openapi.d.ts', 'paging.d.ts'])
      expect(existsSync(join(dist, file))).toBe(true);

    // A partner's code, typed from dist/ alone: a typed list, a typed error, a wrong call refused.
    const partner = join(scratch, 'partner.ts');
    writeFileSync(
      partner,
      [
        `import { createTravelClient, TravelApiError } from ${JSON.stringify(dist)};`,
        `const travel = createTravelClient({ baseUrl: 'https://travel.example.com', apiKey: 'tek_x' });`,
        `export async function run(): Promise<string[]> {`,
        `  const names: string[] = [];`,
        `  for await (const e of travel.paginate('/api/v1/employees', { query: { status: 'Active' } })) names.push(e.lastName);`,
        `  try { await travel.api.GET('/api/v1/company'); } catch (e) { if (e instanceof TravelApiError) names.push(e.code); }`,
        `  // @ts-expect-error the company is no list`,
        `  travel.paginate('/api/v1/company');`,
        `  return names;`,
        `}`,
      ].join('\n'),
    );
    const typed = spawnSync(
      tsc,
      ['--noEmit', '--strict', '--module', 'commonjs', '--moduleResolution', 'node', '--target', 'es2022', partner],
      { cwd: scratch, encoding: 'utf8' },
    );
    expect({ status: typed.status, out: typed.stdout }).toEqual({ status: 0, out: '' });

    // The built JavaScript against the gateway: every page of the employees, as the source client reads them.
    const t = await stack.tenant('CZ');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const built = require(dist) as typeof import('@travel/client');
    const client = built.createTravelClient({ baseUrl: stack.gateway.url, apiKey: t.apiKey });
    for (let i = 0; i < 3; i++)
      await client.api.POST('/api/v1/employees', { body: { firstName: 'Built', lastName: `Client ${i}` } });
    const ids = (await client.listAll('/api/v1/employees', undefined, { pageSize: 2 })).map((e) => e.id);
    expect(ids).toHaveLength(4); // the owner and three more
    expect(ids.sort()).toEqual((await t.client.listAll('/api/v1/employees')).map((e) => e.id).sort());
    const error = await client.api
      .GET('/api/v1/payouts/ready', { params: { query: { pageSize: 101 } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(built.TravelApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  }, 240_000);
});
