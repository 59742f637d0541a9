// Builds each service into services/<name>/dist: main.js (the server) and migrate.js (the Helm hook
// job), with contracts/openapi.yaml beside them. Only our TypeScript (the service and the @travel/*
// packages) is bundled; third-party packages stay ordinary runtime requires, resolved from the
// service's node_modules, because OpenTelemetry instruments express, mongodb and amqplib by hooking
// `require` and cannot see into a bundle.
//   npm run build [-- <service> …]
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

const root = join(__dirname, '..');
const ALL = ['gateway', 'employees', 'entries', 'fleet', 'payouts', 'reference-fx', 'webhook-dispatcher'];

const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@travel/') ? undefined : { path: args.path, external: true }));
  },
};

async function buildService(name: string): Promise<void> {
  const dir = join(root, 'services', name);
  const out = join(dir, 'dist');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const entryPoints: Record<string, string> = { main: join(dir, 'src', 'main.ts') };
  if (existsSync(join(dir, 'src', 'migrate.ts'))) entryPoints.migrate = join(dir, 'src', 'migrate.ts');
  await build({
    entryPoints,
    outdir: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    plugins: [thirdPartyExternal],
    logLevel: 'warning',
  });
  copyFileSync(join(root, 'contracts', 'openapi.yaml'), join(out, 'openapi.yaml'));
  console.log(`[build] services/${name}/dist: ${Object.keys(entryPoints).map((e) => `${e}.js`).join(', ')}`);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((n) => !ALL.includes(n));
  if (unknown.length) throw new Error(`unknown service(s): ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  for (const name of wanted.length ? wanted : ALL) await buildService(name);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
