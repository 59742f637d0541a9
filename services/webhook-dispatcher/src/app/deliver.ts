import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { WEBHOOK_USER_AGENT } from '@travel/platform';
import { envelopeIdFromEventId } from '@travel/webhook-verify';
import type { Cidr } from '../domain/address-policy';
import type { Sent } from '../domain/outcome';
import { signingSecrets } from '../domain/secret-rotation';
import { schemeOf, signingHeaders } from '../domain/signature-scheme';
import { DestinationRefused, checkDestination, type CheckedDestination, type Resolve } from '../infra/destination';
import type { HttpsSender, SendResult } from '../infra/https-sender';
import type { DeliveryDoc, SubscriptionDoc } from '../infra/repositories';
import type { SecretBox } from '../infra/secret-box';
import type { SubscriptionSlots } from './subscription-slots';

const tracer = trace.getTracer('webhook-dispatcher');

export interface DeliverDeps {
  sender: HttpsSender;
  box: SecretBox;
  allowedCidrs: Cidr[];
  slots: SubscriptionSlots;
  resolve?: Resolve;
}

const sentOf = (result: SendResult): Sent =>
  result.statusCode !== undefined
    ? { kind: 'answered', statusCode: result.statusCode, body: result.body ?? '', durationMs: result.durationMs }
    : { kind: 'no-answer', error: result.error ?? 'no answer', durationMs: result.durationMs };

/**
 * One attempt's request, the same for a first attempt sent from the fan-out and for a queued attempt: the
 * destination checked, the body signed with every secret active now, the POST, its span. The caller holds
 * the subscription's slot (app/subscription-slots.ts); it is freed when the request has ended.
 */
export class Deliverer {
  constructor(private readonly deps: DeliverDeps) {}

  async deliver(sub: SubscriptionDoc, row: DeliveryDoc, payload: string): Promise<Sent> {
    try {
      return await this.send(sub, row, payload);
    } finally {
      this.deps.slots.release(sub._id);
    }
  }

  private async send(sub: SubscriptionDoc, row: DeliveryDoc, payload: string): Promise<Sent> {
    let dest;
    try {
      dest = await checkDestination(sub.url, this.deps.allowedCidrs, this.deps.resolve);
    } catch (err) {
      // A destination that now resolves to a private address is refused for good; DNS trouble is retried.
      const message = (err as Error).message;
      return err instanceof DestinationRefused
        ? { kind: 'refused', error: `refused: ${message}` }
        : { kind: 'no-answer', error: `dns: ${message}`, durationMs: 0 };
    }
    // Every secret active now (both while a rotation's grace lasts, newest first), read at send time (0149).
    const secrets = signingSecrets(sub, new Date()).map((sealed) => this.deps.box.open(sealed));
    return tracer.startActiveSpan(
      'webhook POST',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'webhook.event_type': row.eventType,
          'webhook.delivery_id': row._id,
          'server.address': dest.url.hostname,
        },
      },
      async (span) => {
        try {
          const sent = sentOf(await this.post(dest, payload, secrets, row, sub));
          span.setAttribute('http.response.status_code', sent.kind === 'answered' ? sent.statusCode : 0);
          if (sent.kind !== 'answered') span.setStatus({ code: SpanStatusCode.ERROR, message: sent.error });
          return sent;
        } finally {
          span.end();
        }
      },
    );
  }

  /**
   * The body goes out as the stored string: its UTF-8 bytes are what is signed (the envelope's bytes), in
   * the subscription's signature scheme (decision 0226).
   */
  private post(
    dest: CheckedDestination,
    body: string,
    secrets: string[],
    row: DeliveryDoc,
    sub: SubscriptionDoc,
  ): Promise<SendResult> {
    return this.deps.sender.send(dest, body, {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': WEBHOOK_USER_AGENT,
      ...signingHeaders(schemeOf(sub), {
        body,
        secrets,
        eventId: row.eventId,
        envelopeId: envelopeIdFromEventId(row.eventId),
        eventType: row.eventType,
        deliveryId: row._id,
        nowSeconds: Math.floor(Date.now() / 1000),
      }),
    });
  }
}
