// Operator command for parked messages: `npm run admin -- parked list|redrive --queue <consumer queue>`.
// Talks to the broker in AMQP_URL (the vhost is its path); see docs/operations.md, runbook (b).
import { inspectParked, redriveParked, withOperatorChannel } from '../packages/platform/src/messaging/parked';

const USAGE = [
  'usage: npm run admin -- parked list    --queue <consumer queue> [--limit <n, default 10>]',
  '       npm run admin -- parked redrive --queue <consumer queue> [--limit <n, default all>]',
  '  e.g. --queue webhook-dispatcher.events   (the broker is AMQP_URL, default amqp://guest:guest@127.0.0.1:5672)',
].join('\n');

class UsageError extends Error {}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function count(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`--limit must be a positive integer\n${USAGE}`);
  return Number(text);
}

export async function runParkedCommand(args: string[], amqpUrl: string): Promise<unknown> {
  const [command] = args;
  const queue = flag(args, 'queue');
  if (!queue || (command !== 'list' && command !== 'redrive')) throw new UsageError(USAGE);
  const limit = count(flag(args, 'limit'));
  try {
    return await withOperatorChannel<unknown>(amqpUrl, (ch) =>
      command === 'list' ? inspectParked(ch, queue, limit ?? 10) : redriveParked(ch, queue, { limit }),
    );
  } catch (err) {
    const e = err as Error & { code?: number | string };
    if (e.code === 404)
      throw new Error(`no such queue (${e.message}); name a consumer queue, e.g. webhook-dispatcher.events`);
    if (typeof e.code === 'string' || /ACCESS_REFUSED|getaddrinfo/.test(e.message))
      throw new Error(`cannot reach the broker at ${new URL(amqpUrl).host} (${e.message}); set AMQP_URL`);
    throw err;
  }
}

if (require.main === module) {
  runParkedCommand(process.argv.slice(2), process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672').then(
    (result) => process.stdout.write(JSON.stringify(result) + '\n'),
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    },
  );
}
