import type { Server } from 'node:http';

// Keep-alive on both ends of our own connections. A server closes a connection that has been idle for
// SERVER_KEEP_ALIVE_MS; a client of ours drops an idle socket much sooner, so it never sends a request on
// a socket the server is closing at that very moment (the request would fail with ECONNRESET, and a write
// cannot be retried blindly). 65 s also outlasts the 60 s idle time-out of common load balancers.
export const SERVER_KEEP_ALIVE_MS = 65_000;
/** Node's own global agent keeps an idle socket for 5 s. */
export const CLIENT_IDLE_SOCKET_MS = 5_000;

/**
 * The keep-alive rule on an API server, the gateway's included (0136): idle connections live 65 s. The
 * headers time-out must stay above it, or Node ends an idle kept-alive connection at the headers time-out.
 */
export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
  server.headersTimeout = SERVER_KEEP_ALIVE_MS + 1_000;
}
