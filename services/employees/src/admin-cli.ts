// Operator commands, run with `npm run admin -- …`. Talks to the employees database directly (like a
// migration job), so it works before or while the stack runs; events it raises wait in the outbox
// until the employees service's relay publishes them.
import { connectMongo, ensureIndexes } from '@travel/platform';
import { isMarket, MARKETS } from '@travel/regulations';
import { createTenant } from './app/tenants';
import { employeesRepositories } from './infra/repositories';

const USAGE = [
  `usage: npm run admin -- tenant create --market <${MARKETS.join('|')}> --name "<company name>"`,
  '         [--address "<address>"] [--registration-number <number>] [--vat-number <number>]',
].join('\n');

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(args: string[]): Promise<void> {
  if (args[0] !== 'tenant' || args[1] !== 'create') throw new Error(USAGE);
  const market = (flag(args, 'market') ?? '').toUpperCase();
  const name = flag(args, 'name')?.trim();
  if (!isMarket(market) || !name) throw new Error(USAGE);

  const mongoUrl = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
  const dbName = process.env.MONGO_DB_NAME ?? `${process.env.MONGO_DB_PREFIX ?? 'travel_'}employees`;
  const conn = await connectMongo(mongoUrl, dbName).catch((err: Error) => {
    throw new Error(
      `cannot reach the database at ${mongoUrl} (${err.message}); start the stack with npm start or set MONGO_URL`,
    );
  });
  try {
    const repos = employeesRepositories(conn);
    await repos.migrate();
    await ensureIndexes(conn);
    const created = await createTenant(repos, {
      name,
      market,
      address: flag(args, 'address'),
      registrationNumber: flag(args, 'registration-number'),
      vatNumber: flag(args, 'vat-number'),
    });
    process.stdout.write(JSON.stringify(created) + '\n');
  } finally {
    await conn.close();
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
});
