// Reference-fx's boot with the sandbox FX history (scripts/fx-history.sh) and the recorded feeds: the first
// boot on an empty database imports them; every later boot (each `npm start`, each pod restart) must only
// check what is stored. `npm start` waits 90 s for a service to be ready; the ceiling for a restart is 5 s.
//
//   npm run bench -- fx-boot [--restarts N]     (default 3; writes bench/results/<date>-fx-boot.json)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { start } from '../services/reference-fx/src/service';
import { createTestEnv, repoRoot } from '../packages/testkit/src';
import { ensureInfra, testInfraEnv } from '../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../packages/testkit/src/tls';
import { writeResultsFile, revisionOf } from './lib/results-file';
import { load, machine } from './lib/system';
import { runMain } from './lib/cli';

const RESTART_CEILING_S = 5;
const argv = process.argv.slice(2);
const restarts = Number(argv[argv.indexOf('--restarts') + 1] ?? 3) || 3;

async function main(): Promise<number> {
  const root = repoRoot();
  const history = join(root, '.local', 'fx-history');
  if (!existsSync(join(history, 'PROVENANCE.json'))) throw new Error('no FX history: run scripts/bootstrap.sh');
  const infra = await ensureInfra('test');
  Object.assign(process.env, testInfraEnv(infra, ensureTestTls(join(root, '.local', 'test', 'tls')).caFile));
  const env = await createTestEnv('fxboot');
  const vars = {
    ...process.env,
    ...env.vars,
    FX_HISTORY_DIR: history,
    FX_SEED_DIR: join(root, 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
    LOG_LEVEL: 'error',
  };
  const seconds: number[] = [];
  try {
    for (let i = 0; i <= restarts; i += 1) {
      const t = performance.now();
      const service = await start(vars);
      seconds.push((performance.now() - t) / 1000);
      await service.stop();
      console.log(`[fx-boot] ${i === 0 ? 'first boot' : `restart ${i}`}: ${seconds.at(-1)!.toFixed(1)} s`);
    }
  } finally {
    await env.cleanup();
    await infra.stop();
  }
  const later = seconds.slice(1).sort((a, b) => a - b);
  const median = later[Math.floor(later.length / 2)]!;
  const ok = median <= RESTART_CEILING_S;
  console.log(
    `[fx-boot] restart median ${median.toFixed(1)} s, ceiling ${RESTART_CEILING_S} s: ${ok ? 'within' : 'OVER'}`,
  );
  const date = new Date().toISOString().slice(0, 10);
  writeResultsFile(root, join(root, 'bench', 'results', `${date}-fx-boot.json`), {
    revision: revisionOf(root),
    machine: machine(),
    load: load(),
    firstBootSeconds: seconds[0],
    restartSeconds: seconds.slice(1),
    restartMedianSeconds: median,
    restartCeilingSeconds: RESTART_CEILING_S,
  });
  return ok ? 0 : 1;
}

runMain(main);
