// The relay publishes an event in the trace of the request that raised it (a span `outbox relay <key>`
// under the request's span), and its passes run in no trace, even when a request nudged it
// (docs/decisions/0164). Fakes for the store and the broker: what is checked is the context they see.
import { trace, type Span } from '@opentelemetry/api';
import { node, tracing } from '@opentelemetry/sdk-node';
import { createLogger } from '../logger';
import { Metrics } from '../observability/metrics';
import type { AmqpClient } from './amqp-client';
import { raiseUncheckedEvent, type OutboxEvent } from './events';
import { OutboxRelay } from './outbox-relay';

interface Doc {
  _id: string;
  outbox: Record<string, OutboxEvent>;
  outboxCount: number;
}

describe('outbox relay and the trace of the raising request', () => {
  const exporter = new tracing.InMemorySpanExporter();
  const provider = new node.NodeTracerProvider();
  provider.addSpanProcessor(new tracing.SimpleSpanProcessor(exporter));
  beforeAll(() => provider.register());
  afterAll(() => provider.shutdown());

  it('publishes under `outbox relay <key>` in the request trace; later passes run in no trace', async () => {
    const docs: Doc[] = [];
    /** The active span (or none) at each read of pending documents, in order. */
    const reads: Array<Span | undefined> = [];
    const publishedIn: Array<Span | undefined> = [];
    const collection = {
      collectionName: 'docs',
      find: () => ({
        limit: () => ({
          toArray: async () => {
            reads.push(trace.getActiveSpan());
            return docs.filter((d) => d.outboxCount > 0);
          },
        }),
      }),
      bulkWrite: async (ops: { updateOne: { filter: { _id: string }; update: { $unset: Record<string, ''> } } }[]) => {
        for (const { updateOne: op } of ops) {
          const doc = docs.find((d) => d._id === op.filter._id)!;
          delete doc.outbox[Object.keys(op.update.$unset)[0]!.slice('outbox.'.length)];
          doc.outboxCount--;
        }
        return { modifiedCount: ops.length };
      },
    };
    const client = {
      publish: async () => {
        publishedIn.push(trace.getActiveSpan());
      },
    } as unknown as AmqpClient;
    const relay = new OutboxRelay({
      client,
      collections: [collection as never],
      logger: createLogger('relay-trace-test', 'silent'),
      metrics: new Metrics('relay-trace-test'),
      intervalMs: 10,
    });
    relay.start();
    try {
      const tracer = provider.getTracer('test');
      const request = tracer.startActiveSpan('request', (span) => {
        const event = raiseUncheckedEvent('kit', 'thing.created', 'tenant-1', {});
        docs.push({ _id: 'doc-1', outbox: { [event.id]: event }, outboxCount: 1 });
        relay.nudge({ collection: 'docs', id: 'doc-1' });
        span.end();
        return span.spanContext();
      });
      const readsBefore = reads.length;
      // Published, then at least three more passes.
      while (publishedIn.length === 0 || reads.length < readsBefore + 4) await new Promise((r) => setTimeout(r, 10));

      const relaySpan = exporter.getFinishedSpans().find((s) => s.name === 'outbox relay kit.thing.created');
      expect(relaySpan).toBeDefined();
      expect(relaySpan!.spanContext().traceId).toBe(request.traceId);
      expect(relaySpan!.parentSpanId).toBe(request.spanId);
      expect(publishedIn.map((s) => s?.spanContext().spanId)).toEqual([relaySpan!.spanContext().spanId]);
      // Every pass, the nudged one included, reads in no trace.
      expect(reads.slice(readsBefore).every((s) => s === undefined)).toBe(true);
    } finally {
      await relay.stop();
    }
  });
});
