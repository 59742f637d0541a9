import type { Router } from 'express';
import {
  answerByBody,
  apiRouter,
  ChangesWithTime,
  callerOf,
  listRequest,
  requireAnyPermission,
  requirePermission,
  route,
  type ConditionalGets,
} from '@travel/platform';
import type { components } from '@travel/contracts';
import type { DeliveriesApp } from '../app/deliveries';
import type { RecoveryApp } from '../app/recovery';
import type { SubscriptionsApp } from '../app/subscriptions';
import { toSubscriptionResponse, toSubscriptionWithSecret } from './mappers';

// Registering, deleting, rotating the secret, retrying and recovering change the company's integration: they need
// ManageCompanyData (403 FORBIDDEN otherwise). Reading subscriptions needs a key of the company only.
const WRITE = 'ManageCompanyData';
// The delivery log holds the exact payload bytes, which carry entry data (employee, amounts, status): reading
// it needs the webhook right or the right to read every entry (docs/decisions/0103).
const LOG_READERS = [WRITE, 'ReadAllEntries', 'EditAllEntries'] as const;

type RecoverRequest = components['schemas']['RecoverWebhookRequest'];

/**
 * A subscription in a rotation's grace shows `previousSecretExpiresAt` until the grace ends, then null,
 * with no write in between: such an answer is tagged by its body, never by the version (0149, 0159).
 */
function untilGracesEnd<T>(body: T, shown: ReadonlyArray<{ previousSecretExpiresAt: string | null }>) {
  return shown.some((s) => s.previousSecretExpiresAt !== null) ? new ChangesWithTime(body) : body;
}
type RecoverResponse = components['schemas']['WebhookRecovery'];

export function publicRoutes(
  subscriptions: SubscriptionsApp,
  deliveries: DeliveriesApp,
  recovery: RecoveryApp,
  /** Subscriptions answer from their collection's version (0155); the delivery log by its body's ETag (0159). */
  reads: ConditionalGets,
  subscriptionsCollection: { readonly collection: string },
): Router {
  const r = apiRouter();
  const id = (v: unknown) => String(v);

  r.post(
    '/api/v1/webhooks',
    route(async (req, res) => {
      const caller = requirePermission(req, WRITE);
      res.status(201).json(toSubscriptionWithSecret(await subscriptions.create(caller, req.body)));
    }),
  );
  r.get(
    '/api/v1/webhooks',
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.list(
        req,
        res,
        caller,
        [subscriptionsCollection],
        (page) => subscriptions.list(caller, page),
        toSubscriptionResponse,
        (listed) => untilGracesEnd(listed, listed.items),
      );
    }),
  );
  r.get(
    '/api/v1/webhooks/:id',
    route(async (req, res) => {
      const caller = callerOf(req);
      await reads.answer(req, res, caller, [subscriptionsCollection], async () => {
        const shown = toSubscriptionResponse(await subscriptions.get(caller, id(req.params.id)));
        return untilGracesEnd(shown, [shown]);
      });
    }),
  );
  r.delete(
    '/api/v1/webhooks/:id',
    route(async (req, res) => {
      await subscriptions.delete(requirePermission(req, WRITE), id(req.params.id));
      res.status(204).end();
    }),
  );
  r.post(
    '/api/v1/webhooks/:id/rotate-secret',
    route(async (req, res) => {
      const caller = requirePermission(req, WRITE);
      res.json(toSubscriptionWithSecret(await subscriptions.rotateSecret(caller, id(req.params.id), req.body)));
    }),
  );
  r.get(
    '/api/v1/webhooks/:id/deliveries',
    route(async (req, res) => {
      const caller = requireAnyPermission(req, LOG_READERS);
      // A deleted subscription's log stays readable for the retention period (docs/decisions/0038).
      await subscriptions.withLog(caller, id(req.params.id));
      const { status, eventType, createdFrom, createdBefore } = req.query as Record<string, string | undefined>;
      const filter = { status, eventType, createdFrom, createdBefore };
      const answer = await deliveries.list(caller, id(req.params.id), filter, listRequest(req.query));
      answerByBody(req, res, answer); // the log is not versioned (0159): tagged by its body
    }),
  );
  r.get(
    '/api/v1/webhooks/:id/deliveries/:deliveryId',
    route(async (req, res) => {
      const answer = await deliveries.get(
        requireAnyPermission(req, LOG_READERS),
        id(req.params.id),
        id(req.params.deliveryId),
      );
      answerByBody(req, res, answer);
    }),
  );
  r.post(
    '/api/v1/webhooks/:id/deliveries/:deliveryId/retry',
    route(async (req, res) => {
      const caller = requirePermission(req, WRITE);
      res.status(202).json(await deliveries.retry(caller, id(req.params.id), id(req.params.deliveryId)));
    }),
  );
  r.post(
    '/api/v1/webhooks/:id/recover',
    route(async (req, res) => {
      const caller = requirePermission(req, WRITE);
      const { since } = req.body as RecoverRequest;
      const answer: RecoverResponse = await recovery.recover(caller, id(req.params.id), since);
      res.status(202).json(answer);
    }),
  );
  return r;
}
