import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, type ManagedProcess } from './processes';
import { portOpen, waitFor } from './wait';

/** FerretDB v1.24 on SQLite (our embedding build in tools/ferretdb), bound to loopback. */
export async function startFerretDb(root: string, stateDir: string, port: number): Promise<ManagedProcess> {
  const binary = join(root, '.tools', 'bin', 'ferretdb-local');
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run scripts/bootstrap.sh`);
  const args = ['-listen', `127.0.0.1:${port}`, '-data', join(stateDir, 'ferretdb')];
  // Benchmarks profile the store with `go tool pprof http://<FERRETDB_PPROF>/debug/pprof/profile`.
  if (process.env.FERRETDB_PPROF) args.push('-pprof', process.env.FERRETDB_PPROF);
  const proc = startProcess('ferretdb', binary, args, { logDir: join(stateDir, 'logs') });
  await waitFor('FerretDB', () => portOpen(port), 30_000, proc.exitReason);
  return proc;
}
