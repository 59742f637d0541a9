import { connect } from 'node:net';
import { parseUrlList } from '@travel/platform';

/** Resolves once one address's host accepts a TCP connection, rejects otherwise (within `timeoutMs`). */
function accepts(url: string, timeoutMs: number): Promise<void> {
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

/**
 * Resolves once the host of `urls` (one base URL, or a service's replicas separated by commas) accepts a
 * TCP connection, rejects otherwise (within `timeoutMs`). The gateway's readiness asks no more of
 * employees: their /healthz is on a port the gateway never uses. Of several replicas one is enough, as
 * the calls skip a replica that refuses (docs/decisions/0214).
 */
export async function acceptsConnections(urls: string, timeoutMs = 2000): Promise<void> {
  try {
    await Promise.any(parseUrlList(urls).map((url) => accepts(url, timeoutMs)));
  } catch (err) {
    throw err instanceof AggregateError ? new Error(err.errors.map((e: Error) => e.message).join(', ')) : err;
  }
}
