import type { IncomingMessage } from 'node:http';

export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
}

/** The stream was already consumed (e.g. by express.json()), so the signed bytes are gone. */
export class RawBodyUnavailableError extends Error {
  override readonly name = 'RawBodyUnavailableError';
}

type RequestWithBody = IncomingMessage & { body?: unknown };

/**
 * The exact request bytes: from express.raw() (`req.body` Buffer) or express.text() (string) if
 * one ran, otherwise read from the stream here, up to `limit` bytes.
 */
export async function readRawBody(req: RequestWithBody, limit: number): Promise<Buffer> {
  const tooLarge = () => new PayloadTooLargeError(`Body exceeds ${limit} bytes`);
  if (Buffer.isBuffer(req.body) || typeof req.body === 'string') {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
    if (body.length > limit) throw tooLarge();
    return body;
  }
  // Any other req.body is either a parser's leftover default (stream still unread: fine) or a
  // parsed object (stream ended: the raw bytes are lost and nothing can be verified).
  if (req.readableEnded) {
    throw new RawBodyUnavailableError('Request body was already consumed; mount the webhook before express.json()');
  }
  // Refuse early on a declared length, without reading; Node discards the unread rest.
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  return readStream(req, limit, tooLarge);
}

function readStream(req: IncomingMessage, limit: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      // The error listener stays (as a no-op once settled) so a late abort cannot crash the process.
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish(() => reject(tooLarge()));
        req.resume(); // keep draining so the response can still be written
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(() => resolve(Buffer.concat(chunks, size)));
    const onClose = () => finish(() => reject(new Error('Request closed before the body was complete')));
    const onError = (error: Error) => finish(() => reject(error));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onError);
  });
}
