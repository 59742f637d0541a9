import type { Server, ServerResponse } from 'node:http';

// A server that drains answers every request still, but each answer closes its connection, so no client
// keeps a socket that the server is about to close under it (decision 0216).
const open = new WeakMap<Server, Set<ServerResponse>>();
const draining = new WeakSet<Server>();

/** Tracks the server's answers in progress; called once, when the server is created. */
export function trackAnswers(server: Server): void {
  const answers = new Set<ServerResponse>();
  open.set(server, answers);
  // Before the app's own listener, so the header is set before anything is written.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining.has(server)) res.setHeader('connection', 'close');
    answers.add(res);
    res.once('close', () => answers.delete(res));
  });
}

/** From now on every answer closes its connection, the ones already under way too where still possible. */
export function startDraining(server: Server): void {
  draining.add(server);
  for (const res of open.get(server) ?? []) if (!res.headersSent) res.setHeader('connection', 'close');
}

export const isDraining = (server: Server) => draining.has(server);

/**
 * Stops accepting, closes idle connections, lets requests in flight finish for `graceMs` at most, then
 * ends whatever is still open. `graceMs` 0: everything ends at once.
 */
export async function closeServer(server: Server, graceMs = 0): Promise<void> {
  startDraining(server);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  if (graceMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }
  server.closeAllConnections();
  await closed;
}
