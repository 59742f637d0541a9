import type { NextFunction, Request, Response } from 'express';
import { AppError, problem, warnOfOutage, statusOf, type ErrorCode, type FieldErrors } from '../errors';
import type { Logger } from '../logger';
import { classifyFailure } from '../messaging/failure';
import { traceIdOf } from './request-context';

interface ValidatorIssue {
  path?: string;
  message?: string;
}

/** Turns express-openapi-validator paths (`/body/eventTypes/0`, `.query.page`) into field keys (`eventTypes[0]`, `page`). */
export function fieldKey(path: string | undefined): string {
  if (!path) return 'body';
  const parts = path.replace(/^[./]/, '').split(/[./]/).filter(Boolean);
  if (['body', 'query', 'params', 'path', 'headers'].includes(parts[0] ?? '') && parts.length > 1) parts.shift();
  return parts.reduce((key, part) => (/^\d+$/.test(part) ? `${key}[${part}]` : key ? `${key}.${part}` : part), '');
}

function validatorErrors(issues: ValidatorIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) (errors[fieldKey(issue.path)] ??= []).push(issue.message ?? 'is invalid');
  return errors;
}

// A method a path does not have is 405 METHOD_NOT_ALLOWED with `Allow` (docs/decisions/0037); every
// other client error without a code of its own is a validation failure.
const codeForStatus = (status: number): ErrorCode =>
  status === 401
    ? 'UNAUTHORIZED'
    : status === 403
      ? 'FORBIDDEN'
      : status === 404
        ? 'NOT_FOUND'
        : status === 405
          ? 'METHOD_NOT_ALLOWED'
          : status === 413
            ? 'PAYLOAD_TOO_LARGE'
            : status === 429
              ? 'RATE_LIMITED'
              : 'VALIDATION_FAILED';

// busboy's refusals of a malformed multipart or form body (a part header it cannot read, a body that ends
// inside a part). express-openapi-validator passes them on as a 500; they are the client's fault: 400.
const MALFORMED_FORM =
  /^(Malformed part header|Malformed content type|Unexpected end of (form|file)|Part terminated early|Malformed urlencoded form)$/;

/** Whether an error is the validator's wrapping of a body busboy could not read. */
function isMalformedForm(e: { status?: number; message?: string; errors?: ValidatorIssue[] }): boolean {
  return (
    e.status === 500 && [e.message, ...(e.errors ?? []).map((i) => i.message)].some((m) => MALFORMED_FORM.test(m ?? ''))
  );
}

/** One error handler for every service: the documented body for every failure, 500 only for our own bugs. */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const traceId = traceIdOf(req);
    const send = (status: number, body: object) => {
      // res.json, so that with VALIDATE_RESPONSES an error body is checked against the operation's
      // declared responses like a success body (an undeclared status or a wrong body becomes a 500).
      if (!res.headersSent) res.status(status).type('application/problem+json').json(body);
    };

    if (err instanceof AppError) {
      warnOfOutage(logger, err, { requestId: req.requestId, path: req.path });
      send(err.status, problem(err.code, traceId, err.message, err.errors));
      return;
    }
    const e = (err ?? {}) as {
      status?: number;
      type?: string;
      errors?: ValidatorIssue[];
      message?: string;
      expose?: boolean;
      headers?: Record<string, string>;
      name?: string;
    };
    // body-parser: malformed JSON or an oversized body.
    if (e.type === 'entity.parse.failed') {
      send(400, problem('VALIDATION_FAILED', traceId, 'The body is not valid JSON.', { body: ['is not valid JSON'] }));
      return;
    }
    if (e.type === 'entity.too.large' || e.status === 413) {
      send(413, problem('PAYLOAD_TOO_LARGE', traceId));
      return;
    }
    if (isMalformedForm(e)) {
      send(400, problem('VALIDATION_FAILED', traceId, 'The multipart body could not be read.', { body: [e.message!] }));
      return;
    }
    // express-openapi-validator: request does not match the contract.
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && Array.isArray(e.errors)) {
      const code = codeForStatus(e.status);
      const status = statusOf(code);
      // The validator names the path's methods for its 405.
      if (code === 'METHOD_NOT_ALLOWED' && e.headers?.Allow && !res.headersSent)
        res.setHeader('allow', e.headers.Allow);
      send(
        status,
        problem(code, traceId, e.message, code === 'VALIDATION_FAILED' ? validatorErrors(e.errors) : undefined),
      );
      return;
    }
    // Any other client error from the HTTP stack (unsupported charset or encoding, a bad length…):
    // the client's fault, so a 4xx in the documented body, never a 500.
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
      const code = codeForStatus(e.status);
      send(statusOf(code), problem(code, traceId, e.message));
      return;
    }
    // The store or the broker away for a moment (a restart, a crash, a failover): nothing of ours is
    // broken and the client may try again, so 503 SERVICE_UNAVAILABLE, as for an upstream that does not
    // answer, not a 500 (docs/decisions/0121). The classes are the consumers' own (decision 0041).
    if (classifyFailure(err) === 'transient') {
      logger.warn(
        { err: { name: e.name, message: e.message }, requestId: req.requestId, path: req.path },
        'dependency unavailable',
      );
      send(503, problem('SERVICE_UNAVAILABLE', traceId));
      return;
    }
    logger.error({ err, requestId: req.requestId, path: req.path }, 'unhandled error');
    send(500, problem('INTERNAL', traceId));
  };
}

export function notFoundHandler(req: Request, _res: Response, next: NextFunction): void {
  next(new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}.`));
}
