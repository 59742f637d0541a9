import { readFileSync } from 'node:fs';
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

/**
 * A TCP port free on loopback right now, below the ephemeral range, for a child that listens on it only later
 * (a stack starting service after service): a port from `freePort` is an ephemeral one, which an outgoing
 * connection of any process may take before the child listens (EADDRINUSE). Falls back to `freePort` where
 * the range is unknown.
 */
export async function freeListenPort(): Promise<number> {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return freePort();
  }
  const from = 10_000;
  if (!(low > from + 1000)) return freePort();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = from + Math.floor(Math.random() * (low - from));
    if (await canListen(port)) return port;
  }
  return freePort();
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Waits until a service answers its readiness probe, on its ops port (`opsUrl`, never the API's). */
export async function waitReady(opsUrl: string, timeoutMs = 30_000): Promise<void> {
  await eventually(async () => (await fetch(`${opsUrl}/readyz`).catch(() => undefined))?.ok, timeoutMs, 200);
}

/** Free ports for a service run as a child process: its API and its ops port, as variables and URLs. */
export async function childPorts(): Promise<{ env: { PORT: string; OPS_PORT: string }; url: string; opsUrl: string }> {
  const port = await freeListenPort();
  let opsPort = await freeListenPort();
  while (opsPort === port) opsPort = await freeListenPort();
  return {
    env: { PORT: String(port), OPS_PORT: String(opsPort) },
    url: `http://127.0.0.1:${port}`,
    opsUrl: `http://127.0.0.1:${opsPort}`,
  };
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
