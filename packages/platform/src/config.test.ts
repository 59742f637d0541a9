import { generateSigningKey, keyText, keyringText } from './context-keys';
import { ConfigError, defineConfig, parseConfig } from './config/config-schema';
import { env, envDocs, type EnvShape, type EnvVar } from './config/env-variables';
import { serviceConfig } from './config/shared-settings';

/** Parses `source` with a schema of the given variables, mapped to their values as they are. */
const parse = <S extends EnvShape>(shape: S, source: Record<string, string | undefined>) =>
  parseConfig(
    defineConfig('test', shape, (v) => v),
    source,
  );

/** The ConfigError that parsing throws, or a test failure when it does not throw one. */
function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

const one = <T>(schema: EnvVar<T>, value: string | undefined, name = 'V') =>
  (parse({ [name]: schema }, { [name]: value }) as Record<string, T>)[name];

describe('variables', () => {
  describe('string', () => {
    it('returns the value when set', () => {
      expect(one(env.string({ default: '127.0.0.1', description: '' }), '0.0.0.0')).toBe('0.0.0.0');
    });

    it.each<[string, string | undefined]>([
      ['missing', undefined],
      ['empty', ''],
    ])('falls back to the default when %s', (_name, value) => {
      expect(one(env.string({ default: '127.0.0.1', description: '' }), value)).toBe('127.0.0.1');
    });

    it.each<[string, string | undefined]>([
      ['missing', undefined],
      ['empty', ''],
    ])('names a required variable that is %s', (_name, value) => {
      expect(problemsOf(() => one(env.string({ description: '' }), value, 'SECRET'))).toEqual(['SECRET is required']);
    });

    it('accepts an empty-string default as a default (not as "required")', () => {
      expect(one(env.string({ default: '', description: '' }), undefined)).toBe('');
    });
  });

  describe('optional', () => {
    it.each<[string | undefined, string | undefined]>([
      [undefined, undefined],
      ['', undefined],
      ['x', 'x'],
    ])('%p → %p', (value, expected) => {
      expect(one(env.optional({ description: '' }), value)).toBe(expected);
    });
  });

  describe('int', () => {
    const port = () => env.int({ default: 8080, max: 65535, description: '' });

    it.each<[string | undefined, number]>([
      [undefined, 8080],
      ['', 8080],
      ['0', 0],
      ['1', 1],
      ['65535', 65535],
      ['3000', 3000],
    ])('PORT=%p → %p without problems', (value, expected) => {
      expect(one(port(), value, 'PORT')).toBe(expected);
    });

    it.each(['65536', '-1', '1.5', 'abc', '80abc', 'NaN', 'Infinity', '0x10', '1e3', '0b11', '   '])(
      'PORT=%p is refused, naming the variable and the range',
      (value) => {
        expect(problemsOf(() => one(port(), value, 'PORT'))).toEqual([
          `PORT must be an integer between 0 and 65535, got "${value}"`,
        ]);
      },
    );

    it('honours a custom minimum', () => {
      const shape = {
        A: env.int({ default: 10_000, min: 1000, description: '' }),
        B: env.int({ default: 10_000, min: 1000, description: '' }),
      };
      expect(parse(shape, { B: '1000' })).toEqual({ A: 10_000, B: 1000 });
      expect(problemsOf(() => parse(shape, { A: '999', B: '1000' }))).toEqual([
        `A must be an integer between 1000 and ${Number.MAX_SAFE_INTEGER}, got "999"`,
      ]);
    });
  });

  describe('bool', () => {
    it.each<[string | undefined, boolean, boolean]>([
      [undefined, false, false],
      [undefined, true, true],
      ['', true, true],
      ['1', false, true],
      ['true', false, true],
      ['TRUE', false, true],
      ['Yes', false, true],
      ['0', true, false],
      ['false', true, false],
      ['False', true, false],
      ['NO', true, false],
    ])('%p (default %p) → %p', (value, fallback, expected) => {
      expect(one(env.bool({ default: fallback, description: '' }), value)).toBe(expected);
    });

    it.each(['on', 'off', 'y', '2', 'truthy'])('%p is refused', (value) => {
      expect(problemsOf(() => one(env.bool({ default: true, description: '' }), value, 'FLAG'))).toEqual([
        `FLAG must be true or false, got "${value}"`,
      ]);
    });
  });

  describe('list', () => {
    it.each<[string | undefined, string[]]>([
      ['a,b,c', ['a', 'b', 'c']],
      [' 127.0.0.1/32 , 10.0.0.0/8 ', ['127.0.0.1/32', '10.0.0.0/8']],
      ['a,,b,', ['a', 'b']],
      ['single', ['single']],
      [',', []],
    ])('%p → %p', (value, expected) => {
      expect(one(env.list({ default: ['fallback'], description: '' }), value)).toEqual(expected);
    });

    it.each<[string | undefined]>([[undefined], ['']])('%p → the default', (value) => {
      expect(one(env.list({ default: ['x', 'y'], description: '' }), value)).toEqual(['x', 'y']);
      expect(one(env.list({ description: '' }), value)).toEqual([]);
    });
  });

  it('oneOf refuses a word outside its set', () => {
    const level = env.oneOf({ values: ['info', 'debug'] as const, default: 'info', description: '' });
    expect(one(level, 'debug')).toBe('debug');
    expect(problemsOf(() => one(level, 'loud', 'LOG_LEVEL'))).toEqual([
      'LOG_LEVEL must be one of info, debug, got "loud"',
    ]);
  });

  it('url refuses anything but http(s)', () => {
    const url = env.url({ default: 'https://example.test/feed', description: '' });
    expect(one(url, undefined)).toBe('https://example.test/feed');
    expect(problemsOf(() => one(url, 'ftp://x', 'FX_ECB_URL'))).toEqual([
      'FX_ECB_URL must be an http(s) URL, got "ftp://x"',
    ]);
  });

  it('urls takes one base URL or several separated by commas (a service’s replicas), each http(s)', () => {
    const urls = env.urls({ default: 'http://127.0.0.1:8081', description: '' });
    expect(one(urls, undefined)).toBe('http://127.0.0.1:8081');
    expect(one(urls, ' http://a:1 , http://b:2,')).toBe('http://a:1,http://b:2');
    expect(problemsOf(() => one(urls, 'http://a:1,b:2', 'EMPLOYEES_URL'))).toEqual([
      'EMPLOYEES_URL must be one http(s) URL or several separated by commas, got "http://a:1,b:2"',
    ]);
    expect(problemsOf(() => one(urls, ' , ', 'EMPLOYEES_URL'))).toHaveLength(1);
  });

  it("parsed reports the parser's message after the variable's name", () => {
    const delays = env.parsed({ type: 'delays', default: '1s', fallback: [] as number[], description: '' }, (text) =>
      text.split(',').map((d) => {
        if (!/^\d+s$/.test(d)) throw new Error(`"${d}" is not a delay`);
        return Number.parseInt(d, 10);
      }),
    );
    expect(one(delays, undefined)).toEqual([1]);
    expect(one(delays, '2s,3s')).toEqual([2, 3]);
    expect(problemsOf(() => one(delays, '1x', 'SCHEDULE'))).toEqual(['SCHEDULE: "1x" is not a delay']);
  });

  it('carries the documentation the configuration page is generated from', () => {
    expect(envDocs.get(env.int({ default: 5, min: 1, max: 9, note: 'five', description: 'How many.' }))).toEqual({
      type: 'integer 1–9',
      default: '`5` (five)',
      description: 'How many.',
    });
    expect(envDocs.get(env.string({ description: 'A secret.' }))?.default).toBe('**required**');
  });
});

/** Valid key material of a service: its own key, and the keys of the gateway and of entries. */
const own = generateSigningKey();
const gateway = generateSigningKey();
const entries = generateSigningKey();
const KEYS = {
  INTERNAL_SIGNING_KEY: own.privateKey,
  INTERNAL_TRUSTED_KEYS: keyringText({ gateway: gateway.publicKey, entries: entries.publicKey }),
};

describe('a service schema', () => {
  const schema = serviceConfig('webhook-dispatcher', 3007);

  it('applies the defaults and requires only the key material', () => {
    const { signingKey, trustedKeys, ...rest } = parseConfig(schema, KEYS);
    expect(rest).toEqual({
      serviceName: 'webhook-dispatcher',
      port: 3007,
      // The registry's ops port of the service (contracts/src/services.ts).
      opsPort: 9086,
      host: '127.0.0.1',
      mongoUrl: 'mongodb://127.0.0.1:27017',
      mongoDbName: 'travel_webhook_dispatcher',
      amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
      logLevel: 'info',
      validateResponses: false,
      // docs/configuration.md: 1 s doubling up to 5 min, parked at the 50th failed attempt.
      consumerRetry: { baseMs: 1000, maxDelayMs: 300_000, maxAttempts: 50 },
      // Decision 0216: 5 s of failed readiness before the port closes, then 15 s for the work in flight.
      shutdown: { readinessPauseMs: 5_000, drainTimeoutMs: 15_000 },
      // Decision 0218: a scheduled job's lease, 1 minute.
      jobLeaseMs: 60_000,
    });
    expect(keyText(signingKey)).toBe(own.privateKey);
    expect([...trustedKeys.keys()]).toEqual(['gateway', 'entries']);
    expect(trustedKeys.get('gateway')!.map(keyText)).toEqual([gateway.publicKey]);
  });

  it('derives the database name from MONGO_DB_PREFIX unless MONGO_DB_NAME is set', () => {
    const fx = serviceConfig('reference-fx', 1);
    const secret = KEYS;
    expect(parseConfig(fx, { ...secret, MONGO_DB_PREFIX: 'ci_' }).mongoDbName).toBe('ci_reference_fx');
    expect(parseConfig(fx, { ...secret, MONGO_DB_PREFIX: 'ci_', MONGO_DB_NAME: 'explicit' }).mongoDbName).toBe(
      'explicit',
    );
  });

  it('reads the consumer back-off from CONSUMER_RETRY_*', () => {
    expect(
      parseConfig(schema, {
        ...KEYS,
        CONSUMER_RETRY_BASE_MS: '50',
        CONSUMER_RETRY_MAX_DELAY_MS: '400',
        CONSUMER_RETRY_MAX_ATTEMPTS: '8',
      }).consumerRetry,
    ).toEqual({ baseMs: 50, maxDelayMs: 400, maxAttempts: 8 });
  });

  it('reports ALL problems at once, each naming its variable, checks across variables included', () => {
    let error: ConfigError | undefined;
    try {
      parseConfig(schema, {
        PORT: '70000',
        VALIDATE_RESPONSES: 'sometimes',
        LOG_LEVEL: 'loud',
        CONSUMER_RETRY_BASE_MS: '5000',
        CONSUMER_RETRY_MAX_DELAY_MS: '1000',
        CONSUMER_RETRY_MAX_ATTEMPTS: '0',
      });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toEqual([
      'PORT must be an integer between 0 and 65535, got "70000"',
      'INTERNAL_SIGNING_KEY is required',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      'INTERNAL_TRUSTED_KEYS is required',
      'VALIDATE_RESPONSES must be true or false, got "sometimes"',
      'CONSUMER_RETRY_MAX_ATTEMPTS must be an integer between 1 and 1000, got "0"',
      'CONSUMER_RETRY_MAX_DELAY_MS (1000) must not be below CONSUMER_RETRY_BASE_MS (5000)',
    ]);
    expect(error!.message).toBe(`invalid configuration:\n  - ${error!.problems.join('\n  - ')}`);
  });

  it('reads process.env by default', () => {
    const saved = { ...process.env };
    Object.assign(process.env, KEYS);
    try {
      expect(keyText(parseConfig(schema).signingKey)).toBe(own.privateKey);
    } finally {
      for (const name of Object.keys(KEYS)) if (saved[name] === undefined) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});

describe('key material (0100, 0101)', () => {
  const schema = serviceConfig('employees', 3001);
  const problems = (vars: Record<string, string>) => problemsOf(() => parseConfig(schema, { ...KEYS, ...vars }));
  const oldSecret = 'an-hmac-secret-as-INTERNAL_CONTEXT_SECRET-took-it-0123456789';

  it.each([
    ['a short key', 'c2hvcnQ='],
    ['a 16-byte key', Buffer.alloc(16, 7).toString('base64')],
    ['a 33-byte key', Buffer.alloc(33, 7).toString('base64')],
    ['a hex key of 32 bytes (64 characters)', 'ab'.repeat(32)],
    ['the old shared HMAC secret', oldSecret],
    ['a public key in PEM', '-----BEGIN PRIVATE KEY-----'],
  ])('refuses %s as INTERNAL_SIGNING_KEY, without repeating it', (_name, value) => {
    const found = problems({ INTERNAL_SIGNING_KEY: value });
    expect(found).toEqual([`INTERNAL_SIGNING_KEY must be 32 bytes, base64-encoded (got ${value.length} characters)`]);
    expect(found.join()).not.toContain(value);
  });

  it('accepts a key in standard base64 with padding (what openssl and base64 print) and in base64url', () => {
    const raw = Buffer.from(own.privateKey, 'base64');
    for (const text of [raw.toString('base64'), raw.toString('base64url')])
      expect(keyText(parseConfig(schema, { ...KEYS, INTERNAL_SIGNING_KEY: text }).signingKey)).toBe(own.privateKey);
  });

  it.each([
    ['an entry without issuer', `${gateway.publicKey}`, 'has an entry (number 1) that is not issuer:key'],
    [
      'an issuer that is no service name',
      `Gate Way:${gateway.publicKey}`,
      'has an entry (number 1) that is not issuer:key',
    ],
    [
      'a short key',
      `gateway:${gateway.publicKey},entries:abc`,
      'has a key of entries that must be 32 bytes, base64-encoded (got 3 characters)',
    ],
    [
      'the old shared secret',
      `gateway:${oldSecret}`,
      `has a key of gateway that must be 32 bytes, base64-encoded (got ${oldSecret.length} characters)`,
    ],
    ['no gateway key', `entries:${entries.publicKey}`, "must list the gateway's public key (gateway:<key>)"],
  ])('refuses INTERNAL_TRUSTED_KEYS with %s', (_name, value, problem) => {
    expect(problems({ INTERNAL_TRUSTED_KEYS: value })).toEqual([`INTERNAL_TRUSTED_KEYS ${problem}`]);
  });

  it('reads a keyring across lines, and an issuer listed twice keeps both keys (rotation)', () => {
    const next = generateSigningKey();
    const text = `gateway:${gateway.publicKey}\n  gateway:${next.publicKey},\nentries:${entries.publicKey}\n`;
    const { trustedKeys } = parseConfig(schema, { ...KEYS, INTERNAL_TRUSTED_KEYS: text });
    expect(trustedKeys.get('gateway')!.map(keyText)).toEqual([gateway.publicKey, next.publicKey]);
  });

  it('marks a secret key, and refuses one shorter than its length', () => {
    const key = env.secretKey({ bytes: 32, description: '' });
    expect(envDocs.get(key)).toMatchObject({ type: '32 random bytes, base64', default: '**required**', secret: true });
    const value = Buffer.alloc(32, 1).toString('base64');
    expect(one(key, value)).toBe(value);
    expect(problemsOf(() => one(key, undefined, 'K'))).toEqual(['K is required']);
    expect(problemsOf(() => one(key, Buffer.alloc(31, 1).toString('base64'), 'K'))).toEqual([
      'K must be 32 bytes, base64-encoded (got 44 characters)',
    ]);
  });
});
