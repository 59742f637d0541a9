// Cost of the internal contexts (issue 20, decision 0100): what a service pays to verify a context and a
// caller to mint one, Ed25519 against the HMAC-SHA256 of before, and a caller token remembered by
// ContextVerifier (0093). Pure CPU, no infrastructure:
//
//   npx tsx bench/internal-context.ts [--runs 5000]      # or: npm run bench:context
//
// Prints microseconds per operation (median of 5 rounds) with the machine's load average.
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  ContextVerifier,
  generateSigningKey,
  keyringText,
  mintContext,
  parseKeyring,
  privateKeyFromText,
  verifyContext,
  type CallerContext,
} from '../packages/platform/src';
import { load } from './lib/system';

const argv = process.argv.slice(2);
const RUNS = Number(argv[argv.indexOf('--runs') + 1]) || 5000;

const pair = generateSigningKey();
const key = privateKeyFromText(pair.privateKey);
const trust = { audience: 'employees', keyring: parseKeyring(keyringText({ gateway: pair.publicKey })) };
const id = '0b3e0f0e-0000-4000-8000-000000000001';
const caller: CallerContext = {
  kind: 'caller',
  tenantId: id,
  market: 'CZ',
  baseCurrency: 'CZK',
  employeeId: id,
  apiKeyId: id,
  permissions: ['ManageEmployees', 'ReadAllEntries', 'ManageWebhooks', 'ManagePayouts'],
  requestId: id,
};
const token = mintContext(caller, key);

// The check of before (INTERNAL_CONTEXT_SECRET): HMAC-SHA256 of the payload, compared, then the JSON read.
const secret = 'x'.repeat(48);
const [payload] = token.split('.') as [string];
const hmacToken = `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
function hmacVerify(): unknown {
  const [p, s] = hmacToken.split('.') as [string, string];
  const expected = createHmac('sha256', secret).update(p).digest();
  if (!timingSafeEqual(expected, Buffer.from(s, 'base64url'))) throw new Error('forged');
  return JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
}

function microseconds(run: () => unknown): number {
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < RUNS; i++) run();
    rounds.push(Number(process.hrtime.bigint() - started) / RUNS / 1000);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}

const remembered = new ContextVerifier(trust);
remembered.verify(token);
const results = {
  'HMAC-SHA256 verify (before)': microseconds(hmacVerify),
  'Ed25519 mint': microseconds(() => mintContext(caller, key)),
  'Ed25519 verify': microseconds(() => verifyContext(token, trust)),
  'ContextVerifier, remembered token': microseconds(() => remembered.verify(token)),
};
console.log(`token ${token.length} characters (HMAC: ${hmacToken.length}); load average ${load().join(', ')}`);
for (const [name, us] of Object.entries(results)) console.log(`${name.padEnd(36)} ${us.toFixed(1).padStart(7)} µs`);
