// Every event on the bus reaches a queue (decision 0186): a consumer's, or, when it is announced for a
// consumer not built yet, `domain.announcements`; never both, never neither. So no normal write parks an
// event as unroutable and raises TravelExpenseEventsUnroutable, and binding a first consumer without
// taking its event off ANNOUNCED_EVENTS fails here.
import { ANNOUNCED_EVENTS, EVENT_ROUTING_KEYS } from '@travel/contracts';
import { ANNOUNCEMENTS_QUEUE, DOMAIN_EXCHANGE } from '@travel/platform';
import { deploymentTopology } from '../../../../scripts/topology';

/** AMQP topic matching: `*` one word, `#` zero or more. */
const matches = (pattern: string, key: string): boolean => {
  const words = (p: string[], k: string[]): boolean => {
    if (p.length === 0) return k.length === 0;
    const [head, ...rest] = p;
    if (head === '#') return words(rest, k) || (k.length > 0 && words(p, k.slice(1)));
    return k.length > 0 && (head === '*' || head === k[0]) && words(rest, k.slice(1));
  };
  return words(pattern.split('.'), key.split('.'));
};

describe('every event reaches a queue', () => {
  const bindings = deploymentTopology().bindings.filter((b) => b.source === DOMAIN_EXCHANGE);
  const queuesOf = (key: string) => [
    ...new Set(bindings.filter((b) => matches(b.routingKey, key)).map((b) => b.queue)),
  ];

  it.each(EVENT_ROUTING_KEYS.map((key) => [key]))('%s: a consumer, or the announcements alone', (key) => {
    const queues = queuesOf(key);
    if ((ANNOUNCED_EVENTS as readonly string[]).includes(key)) expect(queues).toEqual([ANNOUNCEMENTS_QUEUE]);
    else {
      expect(queues.length).toBeGreaterThan(0);
      expect(queues).not.toContain(ANNOUNCEMENTS_QUEUE);
    }
  });

  it('matches topic patterns as the broker does', () => {
    expect(
      [
        ['a.b', 'a.b'],
        ['a.*', 'a.b'],
        ['a.*', 'a.b.c'],
        ['a.#', 'a'],
        ['#', 'a.b'],
        ['*.b', 'b'],
      ].map(([p, k]) => matches(p!, k!)),
    ).toEqual([true, true, false, true, true, false]);
  });
});
