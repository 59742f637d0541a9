// Configured secrets have a fixed length, checked at start (issue 20, decision 0101): every variable of
// every process named like a secret is a `secret` variable, and a short value stops the start with a
// problem that names the variable and does not repeat the value.
import { start as startGateway } from '@travel/gateway/src/service';
import { ConfigError, envDocs, generateSigningKey, parseConfig } from '@travel/platform';
import { CONFIG_SCHEMAS } from '../../../scripts/config-doc';

const SECRET_NAME = /SECRET|_KEY$|PASSWORD|TOKEN/;
const secretVariables = CONFIG_SCHEMAS.flatMap((c) =>
  Object.keys(c.shape)
    .filter((name) => SECRET_NAME.test(name))
    .map((name) => [`${c.service} ${name}`, c, name] as const),
);

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('secret settings', () => {
  it('are the signing key of every process and the dispatcher’s encryption key', () => {
    expect(secretVariables.map(([label]) => label).sort()).toEqual(
      [
        ...CONFIG_SCHEMAS.map((c) => `${c.service} INTERNAL_SIGNING_KEY`),
        'webhook-dispatcher WEBHOOK_SECRET_ENCRYPTION_KEY',
      ].sort(),
    );
  });

  it.each(secretVariables)('%s is a secret of 32 bytes: a short one stops the start', (_label, config, name) => {
    expect(envDocs.get(config.shape[name]!)).toMatchObject({ secret: true, default: '**required**' });
    for (const short of ['c2hvcnQ=', Buffer.alloc(16, 9).toString('base64'), 'a-password-of-24-letters']) {
      const problems = problemsOf(() => parseConfig(config, { [name]: short }));
      expect(problems).toContain(`${name} must be 32 bytes, base64-encoded (got ${short.length} characters)`);
      expect(problems.join('\n')).not.toContain(short);
    }
    expect(problemsOf(() => parseConfig(config, {}))).toContain(`${name} is required`);
  });

  it('stop a process at start: the gateway with a short key does not listen', async () => {
    // Free ports, the ops port too: its default (9080) is taken by a neighbour file or a running `npm start`.
    const ports = { PORT: '0', OPS_PORT: '0' };
    await expect(startGateway({ ...ports, INTERNAL_SIGNING_KEY: 'c2hvcnQ=' })).rejects.toThrow(
      'INTERNAL_SIGNING_KEY must be 32 bytes, base64-encoded (got 8 characters)',
    );
    const gateway = await startGateway({ ...ports, INTERNAL_SIGNING_KEY: generateSigningKey().privateKey });
    await gateway.stop();
  });
});
