// The span file of tools/otelcol's `tracefile` exporter, read back: OTLP JSON batches, one a line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ancestry, readSpans, traceTree } from './traces';

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const span = (spanId: string, name: string, kind: number, parentSpanId = '', extra: object = {}) => ({
  traceId: T,
  spanId,
  parentSpanId,
  name,
  kind,
  startTimeUnixNano: '1000000',
  endTimeUnixNano: '3500000',
  ...extra,
});
const batch = (service: string, ...spans: object[]) =>
  JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [{ scope: {}, spans }],
      },
    ],
  });

describe('readSpans, ancestry, traceTree', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'spans-')), 'spans.jsonl');
  writeFileSync(
    file,
    [
      batch('gateway', span('a1', 'POST', 2)),
      batch(
        'dispatcher',
        span('c3', 'webhook POST', 3, 'b2', {
          attributes: [{ key: 'http.response.status_code', value: { intValue: '200' } }],
          links: [{ traceId: 'ffff', spanId: 'eeee' }],
        }),
      ),
      batch('entries', span('b2', 'outbox relay x', 1, 'a1')),
      '',
    ].join('\n'),
  );

  it('flattens every batch with its service, kind, parent, attributes and links', () => {
    const spans = readSpans(file);
    expect(spans.map((s) => [s.service, s.kind, s.name, s.parentSpanId])).toEqual([
      ['gateway', 'SERVER', 'POST', undefined],
      ['dispatcher', 'CLIENT', 'webhook POST', 'b2'],
      ['entries', 'INTERNAL', 'outbox relay x', 'a1'],
    ]);
    expect(spans[1]).toMatchObject({
      attributes: { 'http.response.status_code': 200 },
      links: [{ traceId: 'ffff', spanId: 'eeee' }],
    });
  });

  it('follows parents to the root, whatever order the batches arrived in', () => {
    const spans = readSpans(file);
    expect(ancestry(spans, spans[1]!).map((s) => s.spanId)).toEqual(['c3', 'b2', 'a1']);
  });

  it('prints the trace as a tree', () => {
    expect(traceTree(readSpans(file), T)).toBe(
      [
        'gateway SERVER POST 2.5 ms',
        '  entries INTERNAL outbox relay x 2.5 ms',
        '    dispatcher CLIENT webhook POST 2.5 ms',
      ].join('\n'),
    );
  });

  it('reads a missing file as no spans', () => {
    expect(readSpans(join(tmpdir(), 'no-such-spans.jsonl'))).toEqual([]);
  });
});
