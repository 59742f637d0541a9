// Keep-alive on both ends of our own connections. A server closes a connection that has been idle for
// SERVER_KEEP_ALIVE_MS; a client of ours drops an idle socket much sooner, so it never sends a request on
// a socket the server is closing at that very moment (the request would fail with ECONNRESET, and a write
// cannot be retried blindly). 65 s also outlasts the 60 s idle time-out of common load balancers.
export const SERVER_KEEP_ALIVE_MS = 65_000;
/** Node's own global agent keeps an idle socket for 5 s. */
export const CLIENT_IDLE_SOCKET_MS = 5_000;
