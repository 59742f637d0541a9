import { createServer } from 'node:net';
import { eventually } from './api-client';

/** A TCP port free on loopback right now (for a child process that must be told its port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

/** Waits until a service answers its readiness probe. */
export async function waitReady(baseUrl: string, timeoutMs = 30_000): Promise<void> {
  await eventually(async () => (await fetch(`${baseUrl}/readyz`).catch(() => undefined))?.ok, timeoutMs, 200);
}

/**
 * The environment for running a built service as a container would: pnpm's bin shims put its whole
 * hoisted store on NODE_PATH, which would let a bundle resolve packages the image does not have.
 */
export function productionLikeEnv(vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...vars };
  delete env.NODE_PATH;
  return env;
}
