// Types only: the SDK must not pull express in at runtime (partners may run Express 4 or 5).
import type { Request, RequestHandler, Response } from 'express';
import type { DedupeStore } from './dedupe';
import { WebhookVerificationError } from './errors';
import { PayloadTooLargeError, RawBodyUnavailableError, readRawBody } from './raw-body';
import { secretList, type Secrets } from './signature';
import type { WebhookEnvelope } from './types';
import { verify } from './verify';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface WebhookEventMeta {
  /** Dashed event GUID from `Svc-Event-Id`, lowercased. */
  eventId: string;
  deliveryId: string;
  /** Signature timestamp, unix seconds. */
  timestamp: number;
  req: Request;
}

export interface WebhookMiddlewareOptions {
  /** The subscription's signing secret, `whsec_…` in full; several during a rotation. */
  secret: Secrets;
  /** Skip events already handled. Strongly recommended: delivery is at-least-once. */
  dedupe?: DedupeStore;
  toleranceSeconds?: number;
  futureSkewSeconds?: number;
  /** Default 1 MiB; larger bodies get 413. */
  maxBodyBytes?: number;
  /** Clock in milliseconds, for tests. */
  now?: () => number;
  /** Called once per new event, after verification. Answer comes after it resolves; a throw means 500 and a retry. */
  onEvent(envelope: WebhookEnvelope, meta: WebhookEventMeta): unknown;
  /** Observe rejections and handler failures (logging, metrics). Must not throw. */
  onError?(error: unknown, req: Request): void;
}

function reply(res: Response, status: number, body: object): void {
  if (!res.headersSent) res.status(status).json(body);
}

/**
 * Terminal express handler for webhook deliveries: mount it with `app.post(path, …)` before any
 * JSON body parser for that path. Answers 200 `{ received, duplicate }`, 400 `{ error, message }`
 * when the request cannot be trusted, 413 beyond the size limit and 500 when handling failed
 * (500 makes us retry; 4xx does not).
 */
export function webhookMiddleware(options: WebhookMiddlewareOptions): RequestHandler {
  secretList(options.secret); // fail at startup, not on the first delivery
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const report = (error: unknown, req: Request) => {
    try {
      options.onError?.(error, req);
    } catch {
      // A broken logger must not change the answer.
    }
  };

  return async (req, res) => {
    if (req.method !== 'POST') {
      res.set('Allow', 'POST');
      return reply(res, 405, { error: 'METHOD_NOT_ALLOWED' });
    }

    let verified;
    try {
      const body = await readRawBody(req, limit);
      verified = verify(body, req.headers, options.secret, options);
    } catch (error) {
      report(error, req);
      if (error instanceof WebhookVerificationError) {
        return reply(res, 400, { error: error.code, message: error.message });
      }
      if (error instanceof PayloadTooLargeError) return reply(res, 413, { error: 'PAYLOAD_TOO_LARGE' });
      if (error instanceof RawBodyUnavailableError) {
        return reply(res, 500, { error: 'RAW_BODY_UNAVAILABLE', message: error.message });
      }
      return reply(res, 400, { error: 'BAD_REQUEST' }); // aborted or broken upload
    }

    const { envelope, eventId, deliveryId, timestamp } = verified;
    // De-duplicate only after verification, so forged requests cannot poison the store.
    let duplicate = false;
    try {
      duplicate = options.dedupe ? await options.dedupe.seen(eventId) : false;
      if (!duplicate) await options.onEvent(envelope, { eventId, deliveryId, timestamp, req });
    } catch (error) {
      report(error, req);
      // Un-remember the id, otherwise our retry of this event would be skipped as a duplicate.
      if (!duplicate) await options.dedupe?.forget?.(eventId).catch((e: unknown) => report(e, req));
      return reply(res, 500, { error: 'HANDLER_FAILED' });
    }
    reply(res, 200, { received: true, duplicate });
  };
}
