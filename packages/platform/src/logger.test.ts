import { Writable } from 'node:stream';
import { node } from '@opentelemetry/sdk-node';
import { createLogger } from './logger';

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
});
