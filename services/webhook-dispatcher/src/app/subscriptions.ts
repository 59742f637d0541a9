import { randomUUID } from 'node:crypto';
import {
  AppError,
  conflict,
  notFound,
  listPage,
  tenantOf,
  type CallerContext,
  type ListRequest,
} from '@travel/platform';
import type { Cidr } from '../domain/address-policy';
import { checkFilter } from '../domain/payload-filter';
import { checkRegistration } from '../domain/subscription-rules';
import { gracePeriodOf, rotated } from '../domain/secret-rotation';
import { DEFAULT_SIGNATURE_SCHEME, newSigningSecret, schemeOf, type SignatureScheme } from '../domain/signature-scheme';
import { DestinationRefused, checkDestination, type Resolve } from '../infra/destination';
import type { DispatcherRepositories, SubscriptionDoc } from '../infra/repositories';
import type { SecretBox } from '../infra/secret-box';
import type { SubscriptionCache } from '../infra/subscription-cache';

/** A concurrent rotation of the same subscription won this many times in a row: answer 409. */
const ROTATION_TRIES = 3;

/** A subscription with the signing secret it was just given: the one time the secret is shown. */
export interface WithNewSecret {
  subscription: SubscriptionDoc;
  signingSecret: string;
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

  async create(
    caller: CallerContext,
    input: { url: string; eventTypes: string[]; signatureScheme?: SignatureScheme; filter?: unknown },
  ): Promise<WithNewSecret> {
    const scheme = input.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME;
    const { errors, parsed } = checkRegistration(input.url, input.eventTypes, scheme);
    // A filter is checked against the event types only once they are valid (0230).
    const filter = input.filter ?? null;
    if (filter !== null && !errors.eventTypes) Object.assign(errors, checkFilter(filter, input.eventTypes));
    if (!parsed || Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', undefined, errors);
    try {
      await checkDestination(parsed.toString(), this.allowedCidrs, this.resolve);
    } catch (err) {
      const message =
        err instanceof DestinationRefused ? err.message : `the host ${parsed.hostname} could not be resolved`;
      throw new AppError('VALIDATION_FAILED', undefined, { url: [message] });
    }
    const signingSecret = newSigningSecret(scheme);
    const doc: SubscriptionDoc = {
      _id: randomUUID(),
      tenantId: caller.tenantId,
      url: parsed.toString(),
      eventTypes: input.eventTypes,
      filter: filter === null ? null : JSON.stringify(filter),
      signatureScheme: scheme,
      secret: this.box.seal(signingSecret),
      isActive: true,
      disabledAt: null,
      disabledReason: null,
      consecutiveExhausted: 0,
      createdAt: new Date(),
    };
    await this.scope(caller).create(doc);
    this.subscriptionCache?.invalidate(caller.tenantId);
    return { subscription: doc, signingSecret };
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

  list(caller: CallerContext, page: ListRequest) {
    return listPage<SubscriptionDoc, SubscriptionDoc>(
      this.scope(caller),
      { deletedAt: null },
      page,
      { createdAt: -1, _id: 1 },
      (s) => s,
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
      { $set: { deletedAt: new Date() }, $unset: { secret: 1, previousSecret: 1 } },
    );
    this.subscriptionCache?.invalidate(caller.tenantId);
    if (result.modifiedCount === 0) throw notFound('webhook subscription');
  }

  /**
   * A new signing secret, returned this once (docs/decisions/0149). The replaced one keeps signing every
   * POST next to it for `gracePeriodSeconds` (default a day, at most 7 days, 0: not at all); a secret
   * replaced by an earlier rotation stops signing now. A disabled subscription may rotate too.
   */
  async rotateSecret(caller: CallerContext, id: string, body: unknown): Promise<WithNewSecret> {
    const { errors, seconds } = gracePeriodOf(body);
    if (seconds === undefined) throw new AppError('VALIDATION_FAILED', undefined, errors);
    let signingSecret: string | undefined;
    let sealed: string | undefined;
    for (let tries = 0; tries < ROTATION_TRIES; tries++) {
      const current = await this.get(caller, id);
      // The new secret in the subscription's scheme's form (0226); the scheme never changes, so made once.
      signingSecret ??= newSigningSecret(schemeOf(current));
      sealed ??= this.box.seal(signingSecret);
      const now = new Date();
      const next = rotated(current, sealed, seconds, now);
      // Compare-and-set on the secret read: two rotations at once must not both keep "their" previous one.
      const result = await this.scope(caller).updateOne(
        { _id: id, deletedAt: null, secret: current.secret },
        { $set: next },
      );
      if (result.modifiedCount === 1) {
        this.subscriptionCache?.invalidate(caller.tenantId);
        return { subscription: { ...current, ...next }, signingSecret };
      }
    }
    throw conflict('The subscription’s secret was rotated at the same time; try again.');
  }
}
