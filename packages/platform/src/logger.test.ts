import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { node } from '@opentelemetry/sdk-node';
import { bufferedDestination, createLogger, LOG_FLUSH_MS, requestLineLogger } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, stream };
}

describe('log lines carry the active trace', () => {
  const provider = new node.NodeTracerProvider();
  beforeAll(() => provider.register());
  afterAll(() => provider.shutdown());

  it('writes trace_id and span_id of the active span', () => {
    const { lines, stream } = capture();
    const logger = createLogger('test', 'info', stream);
    const tracer = provider.getTracer('test');
    let ids: { traceId: string; spanId: string } | undefined;
    tracer.startActiveSpan('work', (span) => {
      ids = span.spanContext();
      logger.info('inside');
      span.end();
    });
    expect(lines[0]).toMatchObject({ msg: 'inside', trace_id: ids!.traceId, span_id: ids!.spanId });
    expect(lines[0].trace_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('writes them on a line written after an await inside the span, as a request handler does', async () => {
    const { lines, stream } = capture();
    const logger = createLogger('test', 'info', stream);
    const ids = await provider.getTracer('test').startActiveSpan('request', async (span) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.info('after a store call');
      span.end();
      return span.spanContext();
    });
    expect(lines[0]).toMatchObject({ msg: 'after a store call', trace_id: ids.traceId, span_id: ids.spanId });
  });

  it('writes no trace fields outside a span', () => {
    const { lines, stream } = capture();
    createLogger('test', 'info', stream).info('outside');
    expect(lines[0]).not.toHaveProperty('trace_id');
    expect(lines[0]).not.toHaveProperty('span_id');
  });

  it('still censors personal data', () => {
    const { lines, stream } = capture();
    createLogger('test', 'info', stream).info({ employee: { email: 'ana@example.com' } }, 'x');
    expect(lines[0]).toMatchObject({ employee: { email: '[redacted]' } });
  });

  it('request lines: the same service, level and trace fields, one logger per logger; other lines still censored', () => {
    const { lines, stream } = capture();
    const logger = createLogger('test', 'warn', stream);
    expect(requestLineLogger(logger)).toBe(requestLineLogger(logger));
    requestLineLogger(logger).info({ requestId: 'r1' }, 'request'); // below warn: not written
    requestLineLogger(logger).warn({ requestId: 'r2', status: 503 }, 'request');
    logger.warn({ employee: { email: 'ana@example.com' } }, 'x');
    expect(lines).toEqual([
      expect.objectContaining({ service: 'test', level: 40, requestId: 'r2', status: 503, msg: 'request' }),
      expect.objectContaining({ employee: { email: '[redacted]' } }),
    ]);
  });
});

describe('log lines are written in batches, warnings at once (0094)', () => {
  const file = () => join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log');
  const lines = (path: string) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string });
  const until = async (check: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    return check();
  };

  it('holds info lines briefly, then writes them within the flush interval', async () => {
    const path = file();
    const logger = createLogger('test', 'info', bufferedDestination(openSync(path, 'w')));
    const started = Date.now();
    logger.info('one');
    logger.info('two');
    expect(lines(path)).toEqual([]); // buffered: no write per line
    expect(await until(() => lines(path).length === 2)).toBe(true);
    expect(Date.now() - started).toBeLessThan(LOG_FLUSH_MS + 2000);
    expect(lines(path).map((l) => l.msg)).toEqual(['one', 'two']);
  });

  it('writes a warning, and what was buffered before it, without waiting for the interval', async () => {
    const path = file();
    // No periodic flush within the test: only the warning can make the buffer be written.
    const destination = bufferedDestination(openSync(path, 'w'), 600_000);
    const logger = createLogger('test', 'info', destination);
    logger.info('before');
    expect(lines(path)).toEqual([]);
    logger.warn('careful');
    const flushed = new Promise<void>((resolve) => destination.once('drain', () => resolve()));
    await flushed;
    expect(lines(path).map((l) => l.msg)).toEqual(['before', 'careful']);
  });
});
