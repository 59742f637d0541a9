// A benchmark measures the code as the services run it: an esbuild bundle with the build's settings
// (scripts/build.ts), run under plain node. Written to .local/bench/<name>.js.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

/** Bundles `entry` (a benchmark script) and returns the bundle's path; `external` stay in node_modules. */
export function bundleBenchmark(root: string, entry: string, name: string, external: string[] = []): string {
  const outfile = join(root, '.local', 'bench', `${name}.js`);
  mkdirSync(join(root, '.local', 'bench'), { recursive: true });
  buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['esbuild', ...external],
    logLevel: 'warning',
  });
  return outfile;
}
