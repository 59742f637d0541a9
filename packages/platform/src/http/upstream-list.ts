// A service's replicas as its callers see them (docs/decisions/0214): an upstream variable holds one base
// URL (in a cluster, the Kubernetes Service) or several separated by commas (the local replicas). Calls go
// round robin over them, as a Service would spread connections; a call that could not be sent at all goes
// to the next one, and a replica that refused is tried last for a short while.

/** How long a replica that refused a connection is tried only after the others: about a restart's gap. */
export const REFUSED_REPLICA_SKIP_MS = 2000;

/** The base URLs of a comma-separated list; blanks around the commas and empty items are ignored. */
export function parseUrlList(value: string): string[] {
  return value
    .split(',')
    .map((u) => u.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

// Failures of the connection itself: the request never left this process, so sending it to another
// replica cannot run it twice, even for a POST. A reset or a time-out once connected is not among them.
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether an error (undici's, or fetch's with its cause) says the connection was never made. */
export function notSent(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && NOT_SENT.has(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** One upstream's replicas, each call's order of trying them, and which refused recently. */
export class UpstreamList {
  readonly urls: readonly string[];
  private turn = 0;
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    value: string | readonly string[],
    private readonly skipMs = REFUSED_REPLICA_SKIP_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.urls = typeof value === 'string' ? parseUrlList(value) : value;
    if (this.urls.length === 0) throw new Error(`no base URL in "${String(value)}"`);
  }

  /** The URLs to try for one call: the next in turn first, those that refused within `skipMs` last. */
  order(): string[] {
    if (this.urls.length === 1) return [this.urls[0]!];
    const t = this.now();
    const fresh = this.urls.filter((u) => (this.refusedUntil.get(u) ?? 0) <= t);
    const skipped = this.urls.filter((u) => !fresh.includes(u));
    // The turn goes round the replicas that answer, so they share the calls evenly while one is down.
    const start = fresh.length ? this.turn++ % fresh.length : 0;
    return [...fresh.slice(start), ...fresh.slice(0, start), ...skipped];
  }

  /** The replica at `url` could not be reached: try it after the others for a while. */
  refused(url: string): void {
    this.refusedUntil.set(url, this.now() + this.skipMs);
  }

  /** `call` on the URLs in turn until one was sent; an error other than "not sent" ends it at once. */
  async send<T>(call: (baseUrl: string) => Promise<T>): Promise<T> {
    let last: unknown;
    for (const url of this.order()) {
      try {
        return await call(url);
      } catch (err) {
        if (!notSent(err)) throw err;
        this.refused(url);
        last = err;
      }
    }
    throw last;
  }
}
