import {
  DOMAIN_EXCHANGE,
  UNROUTABLE_POLICY,
  consumerTopology,
  domainTopology,
  mergeTopologies,
  rabbitDefinitions,
  serviceTopology,
  type Topology,
} from './topology';

const queue = { name: 'svc.things', bindings: ['a.thing.*'] };
const policy = { baseMs: 1000, maxDelayMs: 4000, maxAttempts: 10 };

describe('the topology description', () => {
  it("a consumer's part: the domain exchange, its queue and parking queue, one back-off queue per delay", () => {
    const t = consumerTopology(queue, policy);
    expect(t.exchanges.map((e) => e.name)).toEqual(['domain.unroutable', DOMAIN_EXCHANGE]);
    expect(t.queues.map((q) => q.name)).toEqual([
      'domain.unroutable.parking',
      'domain.announcements',
      'svc.things.parking',
      'svc.things',
      'svc.things.backoff.1s',
      'svc.things.backoff.2s',
      'svc.things.backoff.4s',
    ]);
    // The announced events' queue keeps the latest 10,000 (decision 0186).
    expect(t.queues.find((q) => q.name === 'domain.announcements')?.arguments).toEqual({
      'x-queue-type': 'quorum',
      'x-max-length': 10_000,
      'x-overflow': 'drop-head',
    });
    expect(t.queues.find((q) => q.name === 'svc.things')?.arguments).toEqual({
      'x-queue-type': 'quorum',
      'x-delivery-limit': 5,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': 'svc.things.parking',
    });
    expect(t.bindings).toContainEqual({ source: DOMAIN_EXCHANGE, queue: 'svc.things', routingKey: 'a.thing.*' });
    expect(t.policies).toEqual([UNROUTABLE_POLICY]);
  });

  it('binds a consumer declared on another exchange to that exchange', () => {
    const t = consumerTopology({ name: 'svc.jobs', exchange: 'svc.direct', bindings: ['job'] }, policy);
    expect(t.bindings.filter((b) => b.queue === 'svc.jobs')).toEqual([
      { source: 'svc.direct', queue: 'svc.jobs', routingKey: 'job' },
    ]);
  });

  it("a service's part: every consumer it declares, with what they rely on beyond that", () => {
    const extra: Topology = {
      exchanges: [{ name: 'svc.direct', type: 'direct' }],
      queues: [],
      bindings: [],
      policies: [],
    };
    const jobs = { name: 'svc.jobs', exchange: 'svc.direct', bindings: ['job'] };
    const t = serviceTopology({ things: queue, jobs }, policy, extra);
    expect(t).toEqual(mergeTopologies(consumerTopology(queue, policy), consumerTopology(jobs, policy), extra));
    expect(t.queues.map((q) => q.name)).toEqual(
      expect.arrayContaining(['svc.things', 'svc.jobs', 'svc.jobs.backoff.4s']),
    );
    expect(t.exchanges.map((e) => e.name)).toContain('svc.direct');
  });

  it('merges parts declaring the same object once, and refuses one object declared two ways', () => {
    expect(mergeTopologies(domainTopology(), domainTopology())).toEqual(domainTopology());
    const other: Topology = {
      exchanges: [],
      queues: [{ name: 'svc.things', arguments: {} }],
      bindings: [],
      policies: [],
    };
    expect(() => mergeTopologies(consumerTopology(queue, policy), other)).toThrow(
      'topology: queue svc.things is declared two different ways',
    );
  });

  it("renders RabbitMQ's definitions format", () => {
    const defs = rabbitDefinitions(consumerTopology(queue, policy));
    expect(defs.exchanges[1]).toEqual({
      name: DOMAIN_EXCHANGE,
      type: 'topic',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    });
    expect(defs.bindings).toContainEqual({
      source: DOMAIN_EXCHANGE,
      destination: 'svc.things',
      destination_type: 'queue',
      routing_key: 'a.thing.*',
      arguments: {},
    });
    expect(defs.policies[0]).toEqual(UNROUTABLE_POLICY);
  });
});
