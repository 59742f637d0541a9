// The `svix` package ships as an ES module only, which this suite's CommonJS jest cannot load: its verdict
// is asked of a child `node` that imports it, given the received bytes, headers and secret on stdin.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { ReceivedRequest } from '@travel/testkit';

const REPO_ROOT = path.resolve(__dirname, '../../../..');

const SCRIPT = `
import { Webhook } from 'svix';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { body, headers, secret } = JSON.parse(input);
try {
  new Webhook(secret).verify(Buffer.from(body, 'base64').toString('utf8'), headers);
  process.stdout.write('accepted');
} catch (error) {
  process.stdout.write(error.message);
}
`;

/** 'accepted', or svix's reason for refusing the request as received with `secret`. */
export function svixVerdict(req: ReceivedRequest, secret: string): string {
  const input = JSON.stringify({ body: Buffer.from(req.body).toString('base64'), headers: req.headers, secret });
  return execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: REPO_ROOT,
    input,
    encoding: 'utf8',
  });
}
