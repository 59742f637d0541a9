import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, invalidField } from '../errors';
import type { Logger } from '../logger';
import type { IdempotencyKeys, IdempotencyScope, StoredAnswer } from '../mongo/idempotency-store';
import type { SealedBox } from '../sealed-box';
import type { ContractRoutes } from './contract';
import { requestFingerprint, type UploadedFile } from './request-fingerprint';
import { callerOf } from './request-context';

// Safe retries of every POST of the API (issue 35 §3, docs/decisions/0195), as partners know them from
// Stripe and the IETF draft "The Idempotency-Key HTTP Header Field".

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** On an answer sent again from the store (Stripe's name). */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** 1–255 visible ASCII characters (a UUID fits; Stripe allows 255). */
export const IDEMPOTENCY_KEY_PATTERN = /^[!-~]{1,255}$/;
/** Larger answers are kept without their body (a replay then names the record): a bounded store. */
export const IDEMPOTENT_ANSWER_MAX_BYTES = 1024 * 1024;
/**
 * An operation whose answer shows a secret once (an API key, a signing secret): its body is stored only
 * sealed, under a key the store never holds (the process's signing key, HKDF), never in plain text.
 */
export const SHOWN_ONCE_EXTENSION = 'x-answer-shown-once';

/** The answer headers a replay repeats; per-request ones (x-request-id, date) are the replay's own. */
const REPLAYED_HEADERS = new Set([
  'content-type',
  'content-disposition',
  'content-language',
  'location',
  'etag',
  'last-modified',
  'link',
  'deprecation',
  'cache-control',
]);

export interface IdempotencyOptions {
  store: IdempotencyKeys;
  routes: ContractRoutes;
  logger: Logger;
  /** Seals the answers shown once; without it they are kept without their body (a replay names the record). */
  answerSeal?: SealedBox;
}

/** The label the answers shown once are sealed under (another label, or a rotated signing key, opens none). */
export const SHOWN_ONCE_SEAL_LABEL = 'travel-expense idempotent answer v1';

/**
 * Express middleware for /api/v1, after the validator (the body parsed, files read, the header's form
 * checked) and before the routes: a POST with `Idempotency-Key` claims the key in the store, or gets the
 * first answer again, 422 for another request under the key, 409 while the first still runs.
 */
export function idempotentPosts({ store, routes, logger, answerSeal }: IdempotencyOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = req.headers[IDEMPOTENCY_KEY_HEADER];
    if (req.method !== 'POST' || key === undefined) return next();
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key))
      return next(invalidField(IDEMPOTENCY_KEY_HEADER, 'must be 1 to 255 visible ASCII characters'));
    const caller = callerOf(req);
    const scope: IdempotencyScope = { tenantId: caller.tenantId, apiKeyId: caller.apiKeyId, key };
    // The whole path: mounted under /api/v1, `req.path` is the rest of it.
    const operation = routes.operation('POST', req.originalUrl.split('?')[0]!);
    if (operation) res.locals.route = operation.template;
    const fingerprint = requestFingerprint({
      method: req.method,
      url: req.originalUrl,
      body: req.body,
      files: req.files as UploadedFile[] | undefined,
    });
    store.claim(scope, fingerprint).then((claim) => {
      switch (claim.kind) {
        case 'replay': {
          const refused = replay(res, claim.answer, answerSeal);
          return refused ? next(refused) : undefined;
        }
        case 'mismatch':
          return next(
            new AppError(
              'IDEMPOTENCY_KEY_REUSED',
              'This Idempotency-Key was used with another request (method, path or body) in the last 24 hours; use a new key for a new request.',
            ),
          );
        case 'running':
          res.setHeader(
            'retry-after',
            String(Math.max(1, Math.ceil((claim.leaseUntil.getTime() - Date.now()) / 1000))),
          );
          return next(
            new AppError(
              'IDEMPOTENCY_KEY_IN_USE',
              'A request with this Idempotency-Key is still running; retry once it has answered.',
            ),
          );
        case 'claimed': {
          const shownOnce = operation?.op?.[SHOWN_ONCE_EXTENSION] === true;
          keepAnswer(res, async (answer) => {
            if (answer.status >= 500) return store.release(scope, claim.token);
            const kept =
              answer.body.length > IDEMPOTENT_ANSWER_MAX_BYTES
                ? withheld(answer)
                : shownOnce
                  ? sealed(answer, answerSeal)
                  : answer;
            const done = await store.complete(scope, claim.token, kept);
            if (!done) logger.warn({ requestId: req.requestId }, 'idempotency claim was taken over before its answer');
          }).catch((err) =>
            // The answer is sent anyway; the claim stays running until its lease ends (docs/decisions/0195).
            logger.warn({ err: (err as Error).message, requestId: req.requestId }, 'idempotent answer not stored'),
          );
          return next();
        }
      }
    }, next);
  };
}

/** The id of the record an answer names, if it is JSON with one: what a replay without the body names. */
function madeId(answer: StoredAnswer): { id?: string } {
  try {
    const parsed = JSON.parse(answer.body.toString('utf8')) as { id?: unknown };
    return typeof parsed?.id === 'string' ? { id: parsed.id } : {};
  } catch {
    return {}; // not JSON: nothing to name
  }
}

/** An outsized answer is kept without its body. */
function withheld(answer: StoredAnswer): StoredAnswer {
  return { status: answer.status, headers: {}, body: Buffer.alloc(0), withheld: madeId(answer) };
}

/** A shown-once answer is kept sealed (never in plain text), or without its body when nothing can seal it. */
function sealed(answer: StoredAnswer, seal: SealedBox | undefined): StoredAnswer {
  if (!seal) return withheld(answer);
  return { ...answer, body: seal.seal(answer.body), sealed: madeId(answer) };
}

/**
 * The stored answer again, marked as a replay. A sealed one is opened first; one whose body was not kept,
 * or can no longer be opened (the signing key was rotated since), is 409 naming what the first request made.
 */
function replay(res: Response, answer: StoredAnswer, seal: SealedBox | undefined): AppError | undefined {
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  const body = answer.sealed ? (seal?.open(answer.body) ?? null) : answer.body;
  const lost = answer.withheld ?? (body === null ? answer.sealed : undefined);
  if (lost || body === null) {
    const made = lost?.id ? ` It made ${lost.id}.` : '';
    return new AppError(
      'CONFLICT',
      `The request with this Idempotency-Key was done (${answer.status}); its answer can no longer be sent again (too large to keep, or sealed under a signing key since rotated).${made}`,
    );
  }
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.status(answer.status).end(body);
  return undefined;
}

type Chunk = string | Uint8Array;
type EndArgs = [chunk?: Chunk | (() => void), encoding?: BufferEncoding | (() => void), cb?: () => void];

/**
 * Holds the handler's answer until `keep` has stored it, then sends it: a partner who saw an answer can
 * always have it again. Every answer here is small JSON (POST bodies), so holding it costs little.
 */
function keepAnswer(res: Response, keep: (answer: StoredAnswer) => Promise<void>): Promise<void> {
  const chunks: Buffer[] = [];
  const write = res.write;
  const end = res.end;
  const add = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array),
    );
  };
  return new Promise<void>((resolve, reject) => {
    res.write = ((chunk: Chunk, encoding?: unknown) => {
      add(chunk, encoding);
      return true;
    }) as Response['write'];
    res.end = ((...args: EndArgs) => {
      add(args[0], args[1]);
      res.write = write;
      res.end = end;
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.getHeaders()))
        if (REPLAYED_HEADERS.has(name) && value !== undefined) headers[name] = String(value);
      const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
      const send = () => {
        if (!res.headersSent) res.setHeader('content-length', body.length);
        (end as (chunk: Buffer, cb?: () => void) => Response).call(res, body, callback);
      };
      keep({ status: res.statusCode, headers, body }).then(
        () => {
          send();
          resolve();
        },
        (err) => {
          send();
          reject(err);
        },
      );
      return res;
    }) as Response['end'];
  });
}
