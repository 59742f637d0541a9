import { connect } from 'node:net';

/**
 * Resolves once `url`'s host accepts a TCP connection, rejects otherwise (within `timeoutMs`). The
 * gateway's readiness asks no more of employees: their /healthz is on a port the gateway never uses.
 */
export function acceptsConnections(url: string, timeoutMs = 2000): Promise<void> {
  const { hostname, port, protocol } = new URL(url);
  return new Promise<void>((resolve, reject) => {
    const socket = connect({
      host: hostname.replace(/^\[|\]$/g, ''),
      port: Number(port || (protocol === 'https:' ? 443 : 80)),
    });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('no answer')));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', (err) => reject(new Error((err as NodeJS.ErrnoException).code ?? err.message)));
  });
}
