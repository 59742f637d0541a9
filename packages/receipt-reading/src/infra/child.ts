import { spawn } from 'node:child_process';

/** An engine failure a retry could fix: a child that crashed, timed out or could not start. */
export class ReadingEngineError extends Error {
  override readonly name = 'ReadingEngineError';
}

export interface RunResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a command off the event loop with its input on stdin; kills it on time-out or abort. Heavy engines
 * are limited to one thread (OMP_THREAD_LIMIT) so a replica uses a bounded share of the CPU.
 */
export function run(
  command: string,
  args: readonly string[],
  input: Buffer | undefined,
  opts: { timeoutMs: number; signal?: AbortSignal; env?: Record<string, string> },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ReadingEngineError(`${command}: aborted`));
    const child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1', ...opts.env },
    });
    const out: Buffer[] = [];
    let err = '';
    let why: string | undefined;
    const kill = (reason: string) => {
      why ??= reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill(`timed out after ${opts.timeoutMs} ms`), opts.timeoutMs);
    const onAbort = () => kill('aborted');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 4096) err += c.toString('utf8');
    });
    child.stdin.on('error', () => undefined); // a child that exits early closes its stdin: its exit says why
    child.on('error', (e) => kill(`could not start: ${e.message}`));
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (why) return reject(new ReadingEngineError(`${command}: ${why}`));
      if (sig) return reject(new ReadingEngineError(`${command}: killed by ${sig}`));
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
    child.stdin.end(input);
  });
}
