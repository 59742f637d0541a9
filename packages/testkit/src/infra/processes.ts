import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** Why it exited, once it has. */
  exitReason(): string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts a long-running server in its own process group, logging to `<logDir>/<name>.log`, so a
 * terminal Ctrl-C reaches only the orchestrator, which then stops its servers in order.
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; logDir: string },
): ManagedProcess {
  mkdirSync(opts.logDir, { recursive: true });
  const log = openSync(join(opts.logDir, `${name}.log`), 'a');
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', log, log],
    detached: true,
  });
  let reason: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      reason = `exit code ${code ?? ''} ${signal ?? ''}`.trim() + ` (see ${join(opts.logDir, `${name}.log`)})`;
      resolve();
    });
    child.once('error', (err) => {
      reason = err.message;
      resolve();
    });
  });
  return {
    name,
    child,
    exitReason: () => reason,
    async stop() {
      if (reason) return;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return;
      }
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
