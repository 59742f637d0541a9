import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// One registry per service instance (several services share a process in tests), so every metric
// of the kit is created through this factory rather than on prom-client's global registry.
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = this.counter('http_requests_total', 'HTTP requests served', ['method', 'route', 'status']);
    this.httpDuration = this.histogram(
      'http_request_duration_seconds',
      'HTTP request duration',
      ['method', 'route', 'status'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
  }

  // Get-or-create by name: two consumers of one service share `amqp_messages_handled_total`.
  counter<L extends string>(name: string, help: string, labelNames: L[] = []): Counter<L> {
    return (
      (this.registry.getSingleMetric(name) as Counter<L>) ??
      new Counter({ name, help, labelNames, registers: [this.registry] })
    );
  }

  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: L[] = [],
    collect?: (this: Gauge<L>) => void | Promise<void>,
  ): Gauge<L> {
    return (
      (this.registry.getSingleMetric(name) as Gauge<L>) ??
      new Gauge({ name, help, labelNames, registers: [this.registry], ...(collect ? { collect } : {}) })
    );
  }

  histogram<L extends string>(name: string, help: string, labelNames: L[] = [], buckets?: number[]): Histogram<L> {
    return (
      (this.registry.getSingleMetric(name) as Histogram<L>) ??
      new Histogram({ name, help, labelNames, registers: [this.registry], ...(buckets ? { buckets } : {}) })
    );
  }
}
