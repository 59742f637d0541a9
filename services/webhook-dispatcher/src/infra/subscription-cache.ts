import type { TenantId } from '@travel/platform';
import type { DispatcherRepositories, SubscriptionDoc } from './repositories';

/** The tenant's subscriptions version an entry's data was read at (docs/decisions/0155). */
interface ReadVersion {
  epoch: string;
  version: number;
}

interface TenantEntry {
  /** When the read that proves it current was sent: every subscription registered before then is in it. */
  loadedAt: number;
  subscriptions: Map<string, SubscriptionDoc>;
  /**
   * The version read before the data, when no write was pending then; without one the entry cannot be
   * revalidated, only read again.
   */
  version?: ReadVersion;
}

/**
 * A tenant's subscriptions, read once and shared by the fan-outs and attempts of this process
 * (docs/decisions/0059). Its rules:
 * - **No missed event.** The fan-out takes an entry only if it was proven current after the event was
 *   raised (`loadedAt > occurredAt`): a subscription registered before the event is then in it. Otherwise
 *   it refreshes the entry; concurrent callers share one refresh, so a burst of events costs one per tenant.
 * - **Refreshed by version** (docs/decisions/0238). A refresh reads the tenant's subscriptions version
 *   (one point read of the counter document, 0155) before anything else. If it finds the version the
 *   entry's data was read at, settled, no subscription was written since that data was read (every write
 *   goes through the version bracket, 0159): the entry serves as if read at the refresh. Otherwise the
 *   subscriptions are read again, after that version read, which the new entry keeps.
 * - **Bounded staleness.** An entry older than `ttlMs` is refreshed before use. This process drops a
 *   tenant's entry whenever it changes one of its subscriptions (register, delete, recover, disable), so a
 *   change made here is seen at once; a change made by another replica, by the next event raised after it
 *   and by any use after `ttlMs`.
 * - **Spaced refreshes.** Under a steady stream of a tenant's events, nearly every event is raised after
 *   the last refresh started, so each would need one of its own. A refresh that must start less than
 *   `minSpacingMs` after the tenant's previous one is scheduled for then instead, and every caller that
 *   arrives meanwhile shares it: at most one per tenant per `minSpacingMs` (docs/decisions/0096), at the
 *   cost of that wait, for the events that need it, when refreshes are that frequent.
 */
export class SubscriptionCache {
  private readonly tenants = new Map<string, TenantEntry>();
  private readonly loading = new Map<string, { startedAt: number; promise: Promise<TenantEntry> }>();
  /** A refresh scheduled to start later (spacing): callers that arrive before it starts share it. */
  private readonly scheduled = new Map<string, Promise<TenantEntry>>();
  private readonly lastStartedAt = new Map<string, number>();
  /** Bumped by every invalidation: a refresh that started before it does not fill the cache. */
  private generation = 0;

  constructor(
    private readonly repos: Pick<DispatcherRepositories, 'subscriptions' | 'versions'>,
    private readonly ttlMs = 1000,
    private readonly maxTenants = 10_000,
    private readonly minSpacingMs = 0,
  ) {}

  /** The tenant's subscriptions as they were at some moment after `notBefore` (ms since epoch). */
  async tenant(tenantId: TenantId, notBefore = 0): Promise<Map<string, SubscriptionDoc>> {
    const now = Date.now();
    const entry = this.tenants.get(tenantId);
    if (entry && entry.loadedAt > notBefore && now - entry.loadedAt < this.ttlMs) return entry.subscriptions;
    const inFlight = this.loading.get(tenantId);
    if (inFlight && inFlight.startedAt > notBefore) return (await inFlight.promise).subscriptions;
    const shared = await this.spacedRefresh(tenantId, now);
    if (shared.loadedAt > notBefore) return shared.subscriptions;
    // Raised "after" a refresh that started later than the call: another host's clock is ahead of ours.
    return (await this.refresh(tenantId)).subscriptions;
  }

  /** A refresh that starts now, or the next scheduled one (it starts after every caller that waits for it came). */
  private spacedRefresh(tenantId: TenantId, now: number): Promise<TenantEntry> {
    const waiting = this.scheduled.get(tenantId);
    if (waiting) return waiting;
    const due = (this.lastStartedAt.get(tenantId) ?? 0) + this.minSpacingMs;
    if (due <= now) return this.refresh(tenantId);
    const promise = new Promise<TenantEntry>((resolve, reject) => {
      setTimeout(() => {
        this.scheduled.delete(tenantId);
        this.refresh(tenantId).then(resolve, reject);
      }, due - now);
    });
    this.scheduled.set(tenantId, promise);
    return promise;
  }

  /** One subscription of the tenant (deleted and disabled ones included), or undefined. */
  async get(tenantId: TenantId, id: string): Promise<SubscriptionDoc | undefined> {
    return (await this.tenant(tenantId)).get(id);
  }

  /** Drops what this process knows of the tenant's subscriptions (after it changed one of them). */
  invalidate(tenantId: string): void {
    this.generation++;
    this.tenants.delete(tenantId);
    this.loading.delete(tenantId);
  }

  private refresh(tenantId: TenantId): Promise<TenantEntry> {
    const startedAt = Date.now();
    if (this.lastStartedAt.size >= this.maxTenants) this.lastStartedAt.clear();
    this.lastStartedAt.set(tenantId, startedAt);
    const generation = this.generation;
    const promise = (async () => {
      // The version first, from a read that begins after this call (0179): the data is then at least as new.
      const state = await this.repos.versions.state(tenantId, this.repos.subscriptions.collection);
      const version = state.settled ? { epoch: state.epoch, version: state.version } : undefined;
      // Found as the cached data was read at, settled: no write landed since that data was read (0155).
      const cached = this.tenants.get(tenantId);
      const subscriptions =
        version && cached?.version && sameVersion(cached.version, version)
          ? cached.subscriptions
          : await this.read(tenantId);
      const entry: TenantEntry = { loadedAt: startedAt, subscriptions, version };
      if (this.generation === generation) {
        if (!this.tenants.has(tenantId) && this.tenants.size >= this.maxTenants)
          this.tenants.delete(this.tenants.keys().next().value as string);
        this.tenants.set(tenantId, entry);
      }
      return entry;
    })();
    this.loading.set(tenantId, { startedAt, promise });
    const clear = () => {
      if (this.loading.get(tenantId)?.promise === promise) this.loading.delete(tenantId);
    };
    promise.then(clear, clear);
    return promise;
  }

  private async read(tenantId: TenantId): Promise<Map<string, SubscriptionDoc>> {
    const docs = await this.repos.subscriptions.of(tenantId).find().lean<SubscriptionDoc[]>();
    return new Map(docs.map((d) => [d._id, d]));
  }
}

const sameVersion = (a: ReadVersion, b: ReadVersion): boolean => a.epoch === b.epoch && a.version === b.version;
