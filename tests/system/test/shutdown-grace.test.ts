// The chart's grace period covers the whole shutdown (decision 0216): the preStop sleep, then the readiness
// pause and the drain time-out of the process, and a few seconds to close the broker and the store.
// Otherwise the kubelet's SIGKILL cuts the drain short, and with it the requests in flight.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { generateSigningKey } from '@travel/platform';
import { readGatewayConfig } from '@travel/gateway/src/service';

const CLOSING_SECONDS = 3;

interface PodTimes {
  preStopSleepSeconds?: number;
  terminationGracePeriodSeconds?: number;
  extraEnv?: { name: string; value?: string }[];
}

describe("the chart's grace period", () => {
  const values = parse(readFileSync(join(__dirname, '../../../charts/travel-expense/values.yaml'), 'utf8')) as {
    defaults: PodTimes;
    services: Record<string, PodTimes>;
  };
  const shutdown = readGatewayConfig({ INTERNAL_SIGNING_KEY: generateSigningKey().privateKey }).shutdown;

  it('is the defaults: preStop 5 s, pause 5 s, drain 15 s, within 30 s', () => {
    expect(values.defaults).toMatchObject({ preStopSleepSeconds: 5, terminationGracePeriodSeconds: 30 });
    expect(shutdown).toEqual({ readinessPauseMs: 5_000, drainTimeoutMs: 15_000 });
  });

  it.each(Object.keys(values.services))('covers preStop, the pause, the drain and closing for %s', (name) => {
    const pod = { ...values.defaults, ...values.services[name] };
    const env = Object.fromEntries((pod.extraEnv ?? []).map((e) => [e.name, Number(e.value)]));
    const pauseMs = env.SHUTDOWN_READINESS_PAUSE_MS ?? shutdown.readinessPauseMs;
    const drainMs = env.SHUTDOWN_DRAIN_TIMEOUT_MS ?? shutdown.drainTimeoutMs;
    expect(pod.terminationGracePeriodSeconds!).toBeGreaterThanOrEqual(
      pod.preStopSleepSeconds! + (pauseMs + drainMs) / 1000 + CLOSING_SECONDS,
    );
  });
});
