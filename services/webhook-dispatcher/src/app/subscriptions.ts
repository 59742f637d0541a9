import { randomBytes, randomUUID } from 'node:crypto';
import { AppError, TenantScope, notFound, paginate, type CallerContext, type PageRequest } from '@travel/platform';
import type { Cidr } from '../domain/address-policy';
import { checkRegistration } from '../domain/subscription-rules';
import { DestinationRefused, checkDestination, type Resolve } from '../infra/destination';
import type { DispatcherModels, SubscriptionDoc } from '../infra/models';
import type { SecretBox } from '../infra/secret-box';

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
    private readonly models: DispatcherModels,
    private readonly box: SecretBox,
    private readonly allowedCidrs: Cidr[],
    private readonly resolve?: Resolve,
  ) {}

  scope(tenantId: string) {
    return new TenantScope<SubscriptionDoc>(this.models.Subscription, tenantId);
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
    await this.models.Subscription.create(doc);
    return { ...toSubscriptionResponse(doc), signingSecret };
  }

  async get(caller: CallerContext, id: string) {
    const doc = await this.scope(caller.tenantId).findById(id).lean<SubscriptionDoc>();
    if (!doc) throw notFound('webhook subscription');
    return doc;
  }

  list(caller: CallerContext, page: PageRequest) {
    return paginate<SubscriptionDoc, ReturnType<typeof toSubscriptionResponse>>(
      this.scope(caller.tenantId),
      {},
      page,
      { createdAt: -1, _id: 1 },
      toSubscriptionResponse,
    );
  }

  /** Deletes the subscription and its delivery log; pending attempts find nothing and stop. */
  async delete(caller: CallerContext, id: string) {
    const result = await this.models.Subscription.deleteOne({ _id: id, tenantId: caller.tenantId });
    if (result.deletedCount === 0) throw notFound('webhook subscription');
    await this.models.Delivery.deleteMany({ tenantId: caller.tenantId, subscriptionId: id });
  }
}
