import { existsSync, readFileSync } from 'node:fs';

/** One span as the collector's span file holds it (OTLP JSON), flattened with its service's name. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  /** Absent on a trace's root span. */
  parentSpanId?: string;
  name: string;
  kind: 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER' | 'UNSPECIFIED';
  /** The resource's service.name. */
  service: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, string | number | boolean>;
  /** Span links (trace and span ids), e.g. to the span that caused it from another trace. */
  links: Array<{ traceId: string; spanId: string }>;
}

const KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: OtlpAttribute[];
  links?: Array<{ traceId: string; spanId: string }>;
}
interface OtlpBatch {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

const valueOf = (v: OtlpValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue ?? ''));

const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** Every span in a span file (tools/otelcol's `tracefile` exporter: one OTLP JSON batch per line). */
export function readSpans(file: string): SpanRecord[] {
  if (!existsSync(file)) return [];
  const spans: SpanRecord[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const batch = JSON.parse(line) as OtlpBatch;
    for (const rs of batch.resourceSpans ?? []) {
      const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? [])
          spans.push({
            traceId: s.traceId,
            spanId: s.spanId,
            ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
            name: s.name,
            kind: KINDS[s.kind ?? 0] ?? 'UNSPECIFIED',
            service,
            startNs: BigInt(s.startTimeUnixNano),
            endNs: BigInt(s.endTimeUnixNano),
            attributes: attributesOf(s.attributes),
            links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          });
    }
  }
  return spans;
}

/** The spans from `span` up to its trace's root, `span` first (stops at a parent not received). */
export function ancestry(spans: SpanRecord[], span: SpanRecord): SpanRecord[] {
  const byId = new Map(spans.filter((s) => s.traceId === span.traceId).map((s) => [s.spanId, s]));
  const chain = [span];
  for (let s = span; s.parentSpanId && byId.has(s.parentSpanId);) {
    s = byId.get(s.parentSpanId)!;
    chain.push(s);
  }
  return chain;
}

/** A trace as an indented tree, one span a line: service, kind, name and duration (npm run trace). */
export function traceTree(spans: SpanRecord[], traceId: string): string {
  const own = spans.filter((s) => s.traceId === traceId).sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
  const ids = new Set(own.map((s) => s.spanId));
  const children = new Map<string, SpanRecord[]>();
  for (const s of own) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : '';
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    for (const s of children.get(parent) ?? []) {
      const ms = Number(s.endNs - s.startNs) / 1e6;
      const orphan = !parent && s.parentSpanId ? ' (parent not received)' : '';
      lines.push(`${'  '.repeat(depth)}${s.service} ${s.kind} ${s.name} ${ms.toFixed(1)} ms${orphan}`);
      walk(s.spanId, depth + 1);
    }
  };
  walk('', 0);
  return lines.join('\n');
}
