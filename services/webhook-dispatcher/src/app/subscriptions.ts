import { randomBytes, randomUUID } from 'node:crypto';
import { AppError, notFound, paginate, tenantOf, type CallerContext, type PageRequest } from '@travel/platform';
import type { Cidr } from '../domain/address-policy';
import { checkRegistration } from '../domain/subscription-rules';
import { DestinationRefused, checkDestination, type Resolve } from '../infra/destination';
import type { DispatcherRepositories, SubscriptionDoc } from '../infra/repositories';
import type { SecretBox } from '../infra/secret-box';
import type { SubscriptionCache } from '../infra/subscription-cache';

export function toSubscriptionResponse(s: SubscriptionDoc) {
  return {
    id: s._id,
    url: s.url,
    eventTypes: s.eventTypes,
    IsActive: s.isActive,
    DisabledAt: s.disabledAt ? s.disabledAt.toISOString() : null,
    DisabledReason: s.disabledReason ?? null,
    consecutiveExhausted: s.consecutiveExhausted ?? 0,
    createdAt: s.createdAt.toISOString(),
  };
}

export class SubscriptionsApp {
  constructor(
    private readonly repos: DispatcherRepositories,
    private readonly box: SecretBox,
    private readonly allowedCidrs: Cidr[],
    private readonly resolve?: Resolve,
    private readonly subscriptionCache?: SubscriptionCache,
  ) {}

  private scope(caller: CallerContext) {
    return this.repos.subscriptions.of(tenantOf(caller));
  }

  async create(caller: CallerContext, input: { url: string; eventTypes: string[] }) {
    const { errors, parsed } = checkRegistration(input.url, input.eventTypes);
    if (!parsed) throw new AppError('VALIDATION_FAILED', undefined, errors);
    try {
      await checkDestination(parsed.toString(), this.allowedCidrs, this.resolve);
    } catch (err) {
      const message =
        err instanceof DestinationRefused ? err.message : `the host ${parsed.hostname} could not be resolved`;
      throw new AppError('VALIDATION_FAILED', undefined, { url: [message] });
    }
    // 32 random bytes: 256 bits, as hex so the secret is plain ASCII in every partner's config.
    const signingSecret = `whsec_${randomBytes(32).toString('hex')}`;
    const doc: SubscriptionDoc = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      url: parsed.toString(),
      eventTypes: input.eventTypes,
      secret: this.box.seal(signingSecret),
      isActive: true,
      disabledAt: null,
      disabledReason: null,
      consecutiveExhausted: 0,
      createdAt: new Date(),
    };
    await this.scope(caller).create(doc);
    this.subscriptionCache?.invalidate(caller.tenantId);
    return { ...toSubscriptionResponse(doc), signingSecret };
  }

  /** A subscription the API still shows: deleted ones are 404 here (docs/decisions/0038). */
  async get(caller: CallerContext, id: string) {
    const doc = await this.withLog(caller, id);
    if (doc.deletedAt) throw notFound('webhook subscription');
    return doc;
  }

  /** The subscription whose delivery log is read: a deleted one answers until retention purges it. */
  async withLog(caller: CallerContext, id: string) {
    const doc = await this.scope(caller).findById(id).lean<SubscriptionDoc>();
    if (!doc) throw notFound('webhook subscription');
    return doc;
  }

  list(caller: CallerContext, page: PageRequest) {
    return paginate<SubscriptionDoc, ReturnType<typeof toSubscriptionResponse>>(
      this.scope(caller),
      { deletedAt: null },
      page,
      { createdAt: -1, _id: 1 },
      toSubscriptionResponse,
    );
  }

  /**
   * Deletes the subscription: it leaves the list and gets no more deliveries (attempts still queued end
   * as Failed, "subscription was deleted"); its secret is erased; its delivery log stays readable for the
   * 30-day retention, after which the retention job removes the record and its rows.
   */
  async delete(caller: CallerContext, id: string) {
    const result = await this.scope(caller).updateOne(
      { _id: id, deletedAt: null },
      { $set: { deletedAt: new Date() }, $unset: { secret: 1 } },
    );
    this.subscriptionCache?.invalidate(caller.tenantId);
    if (result.modifiedCount === 0) throw notFound('webhook subscription');
  }
}
