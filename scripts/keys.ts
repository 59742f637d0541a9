// Key material of the internal contexts (docs/decisions/0100, 0102), for a deployment:
//   npm run --silent keys -- generate        a key pair per process, as a values file for the Helm chart:
//                                             `secrets.signingKeys` (private: keep it out of git, or put
//                                             each in your own Secret as INTERNAL_SIGNING_KEY_<NAME>) and
//                                             `internalKeys.publicKeys` (public)
//   npm run --silent keys -- public <key>    the public key of a private key (INTERNAL_SIGNING_KEY), to
//                                             check which public key a keyring must list for it
import { SERVICE_NAMES } from '../contracts/src/services';
import { generateSigningKey, privateKeyFromText, publicKeyTextOf } from '../packages/platform/src';

/** The name of a process's private key in the chart's Secret: gateway → INTERNAL_SIGNING_KEY_GATEWAY. */
const secretKeyName = (name: string) => `INTERNAL_SIGNING_KEY_${name.toUpperCase().replace(/-/g, '_')}`;

function generate(): string {
  const pairs = SERVICE_NAMES.map((name) => ({ name, ...generateSigningKey() }));
  return [
    '# Made by `npm run keys -- generate`. The private keys are secrets: keep this file out of git, or move',
    '# each private key into your own Secret under the name in its comment (secrets.existingSecret).',
    'secrets:',
    '  signingKeys:',
    ...pairs.map((p) => `    ${p.name}: "${p.privateKey}" # ${secretKeyName(p.name)}`),
    'internalKeys:',
    '  publicKeys:',
    ...pairs.map((p) => `    ${p.name}: "${p.publicKey}"`),
    '',
  ].join('\n');
}

function main(args: string[]): void {
  const [command, key] = args;
  if (command === 'generate') return void process.stdout.write(generate());
  if (command === 'public' && key) return void process.stdout.write(`${publicKeyTextOf(privateKeyFromText(key))}\n`);
  process.stderr.write('usage: npm run --silent keys -- generate | public <private key>\n');
  process.exitCode = 2;
}

try {
  main(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
}
