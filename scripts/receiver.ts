// A local webhook receiver for trying the stack: HTTPS on https://localhost:<port>/hooks with the local
// CA that `npm start` gives the dispatcher, verifying every POST with @travel/webhook-verify.
//   npm run receiver -- --secret whsec_… [--port 9443]
import { createServer } from 'node:https';
import { join } from 'node:path';
import express from 'express';
import { MemoryDedupeStore, webhookMiddleware } from '../packages/webhook-verify/src';
import { repoRoot } from '../packages/testkit/src/infra/infra';
import { ensureTestTls } from '../packages/testkit/src/tls';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const secret = arg('secret') ?? process.env.WEBHOOK_SECRET;
const port = Number(arg('port') ?? 9443);
if (!secret) {
  console.error('usage: npm run receiver -- --secret whsec_… [--port 9443]');
  process.exit(2);
}

const app = express();
app.post(
  '/hooks',
  webhookMiddleware({
    secret,
    dedupe: new MemoryDedupeStore(),
    onEvent: async (envelope, meta) => {
      console.log(`${new Date().toISOString()}  ${envelope.type}  ${meta.eventId}  delivery ${meta.deliveryId}`);
      console.log(JSON.stringify(envelope.data, null, 2));
    },
    onError: (err) => console.log(`rejected: ${(err as Error).message}`),
  }),
);
const tls = ensureTestTls(join(repoRoot(), '.local', 'dev', 'tls'));
createServer({ cert: tls.cert, key: tls.key }, app).listen(port, '127.0.0.1', () => {
  console.log(`receiver on https://localhost:${port}/hooks — verifying signatures, Ctrl-C to stop`);
});
