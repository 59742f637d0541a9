import type { TenantId } from '@travel/platform';
import type { DispatcherRepositories, SubscriptionDoc } from './repositories';

interface TenantEntry {
  /** When the query that filled it was sent: every subscription registered before then is in it. */
  loadedAt: number;
  subscriptions: Map<string, SubscriptionDoc>;
}

/**
 * A tenant's subscriptions, read once and shared by the fan-outs and attempts of this process
 * (docs/decisions/0059). Two rules keep the guarantees:
 * - **No missed event.** The fan-out takes an entry only if it was loaded after the event was raised
 *   (`loadedAt > occurredAt`): a subscription registered before the event is then in it. Otherwise it
 *   loads again; concurrent callers share one load, so a burst of events costs one read per tenant.
 * - **Bounded staleness.** An entry older than `ttlMs` is not used. This process drops a tenant's entry
 *   whenever it changes one of its subscriptions (register, delete, recover, disable), so a change made
 *   here is seen at once; a change made by another replica, within `ttlMs`.
 * - **Spaced reads.** Under a steady stream of a tenant's events, nearly every event is raised after the
 *   last read started, so each would need a read of its own. A read that must start less than
 *   `minSpacingMs` after the tenant's previous one is scheduled for then instead, and every caller that
 *   arrives meanwhile shares it: at most one read per tenant per `minSpacingMs` (docs/decisions/0096),
 *   at the cost of that wait, for the events that need it, when reads are that frequent.
 */
export class SubscriptionCache {
  private readonly tenants = new Map<string, TenantEntry>();
  private readonly loading = new Map<string, { startedAt: number; promise: Promise<TenantEntry> }>();
  /** A read scheduled to start later (spacing): callers that arrive before it starts share it. */
  private readonly scheduled = new Map<string, Promise<TenantEntry>>();
  private readonly lastStartedAt = new Map<string, number>();
  /** Bumped by every invalidation: a load that started before it does not fill the cache. */
  private generation = 0;

  constructor(
    private readonly repos: Pick<DispatcherRepositories, 'subscriptions'>,
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
    const shared = await this.spacedLoad(tenantId, now);
    if (shared.loadedAt > notBefore) return shared.subscriptions;
    // Raised "after" a read that started later than the call: another host's clock is ahead of ours.
    return (await this.load(tenantId)).subscriptions;
  }

  /** A read that starts now, or the next scheduled one (it starts after every caller that waits for it came). */
  private spacedLoad(tenantId: TenantId, now: number): Promise<TenantEntry> {
    const waiting = this.scheduled.get(tenantId);
    if (waiting) return waiting;
    const due = (this.lastStartedAt.get(tenantId) ?? 0) + this.minSpacingMs;
    if (due <= now) return this.load(tenantId);
    const promise = new Promise<TenantEntry>((resolve, reject) => {
      setTimeout(() => {
        this.scheduled.delete(tenantId);
        this.load(tenantId).then(resolve, reject);
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

  private load(tenantId: TenantId): Promise<TenantEntry> {
    const startedAt = Date.now();
    if (this.lastStartedAt.size >= this.maxTenants) this.lastStartedAt.clear();
    this.lastStartedAt.set(tenantId, startedAt);
    const generation = this.generation;
    const promise = (async () => {
      const docs = await this.repos.subscriptions.of(tenantId).find().lean<SubscriptionDoc[]>();
      const entry: TenantEntry = { loadedAt: startedAt, subscriptions: new Map(docs.map((d) => [d._id, d])) };
      if (this.generation === generation) {
        if (this.tenants.size >= this.maxTenants) this.tenants.delete(this.tenants.keys().next().value as string);
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
}
