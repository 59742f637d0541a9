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
