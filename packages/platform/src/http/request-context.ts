import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { trace } from '@opentelemetry/api';
import {
  CONTEXT_HEADER,
  ContextVerifier,
  type ContextTrust,
  REQUEST_ID_HEADER,
  type CallerContext,
  type InternalContext,
} from '../context';
import { AppError } from '../errors';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      internal?: InternalContext;
    }
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id: the one the caller sent when it is well-formed, else a new one. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export function requestId(req: Request, res: Response, next: NextFunction): void {
  req.requestId = requestIdOf(req.headers);
  res.setHeader(REQUEST_ID_HEADER, req.requestId);
  next();
}

/** The id an error body carries: the active trace id when tracing runs, else the request id. */
export function traceIdFor(requestId: string): string {
  const span = trace.getActiveSpan();
  const id = span?.spanContext().traceId;
  return id && !/^0+$/.test(id) ? id : requestId;
}

export const traceIdOf = (req: Request): string => traceIdFor(req.requestId);

/**
 * Refuses a request that lacks a context minted by the gateway (or, for internal routes, one addressed to
 * this service by a peer its keyring trusts: docs/decisions/0100).
 * A verified caller context is remembered until it expires (ContextVerifier, docs/decisions/0093); the
 * caller context a handler sees carries this request's id (the gateway reuses one token for many requests).
 */
export function requireInternalContext(trust: ContextTrust, accept: InternalContext['kind'][] = ['caller']) {
  const verifier = new ContextVerifier(trust);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const ctx = verifier.verify(req.header(CONTEXT_HEADER));
    if (!ctx || !accept.includes(ctx.kind))
      return next(new AppError('UNAUTHORIZED', 'Missing or invalid internal caller context.'));
    req.internal =
      ctx.kind === 'caller' && ctx.requestId !== req.requestId ? { ...ctx, requestId: req.requestId } : ctx;
    next();
  };
}

/** The verified partner caller of this request (the route is behind requireInternalContext). */
export function callerOf(req: Request): CallerContext {
  if (req.internal?.kind !== 'caller') throw new AppError('UNAUTHORIZED');
  return req.internal;
}

export function requirePermission(req: Request, permission: string): CallerContext {
  const caller = callerOf(req);
  if (!caller.permissions.includes(permission)) {
    throw new AppError('FORBIDDEN', `This operation requires the ${permission} permission.`);
  }
  return caller;
}

/** The caller, when it holds at least one of `permissions` (403 FORBIDDEN naming them otherwise). */
export function requireAnyPermission(req: Request, permissions: readonly string[]): CallerContext {
  const caller = callerOf(req);
  if (!permissions.some((p) => caller.permissions.includes(p))) {
    throw new AppError('FORBIDDEN', `This operation requires one of the ${permissions.join(', ')} permissions.`);
  }
  return caller;
}
