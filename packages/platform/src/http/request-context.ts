import type { NextFunction, Request, Response } from 'express';
import { trace } from '@opentelemetry/api';
import {
  CONTEXT_HEADER,
  ContextVerifier,
  REQUEST_ID_HEADER,
  type ContextTrust,
  type CallerContext,
  type InternalContext,
} from '../context';
import { AppError } from '../errors';
import { startRequest, verifiedContext } from './request-pipeline';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      internal?: InternalContext;
    }
  }
}

/** The request's id on express's request: the one its start took (request-pipeline.ts). */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  req.requestId = startRequest(req).requestId;
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
 * Given the process's verifier, a context the remembered reads verified for this request is not verified
 * again (`verifiedContext`, docs/decisions/0232).
 */
export function requireInternalContext(
  trust: ContextTrust | ContextVerifier,
  accept: InternalContext['kind'][] = ['caller'],
) {
  const verifier = trust instanceof ContextVerifier ? trust : new ContextVerifier(trust);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const ctx = verifiedContext(req, verifier, req.header(CONTEXT_HEADER));
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
