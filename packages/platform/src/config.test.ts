import { ConfigError, EnvReader, readBaseConfig } from './config';

const reader = (env: Record<string, string | undefined>) => new EnvReader(env);

/** The ConfigError that done() throws, or a test failure when it does not throw one. */
function configErrorOf(env: EnvReader): ConfigError {
  try {
    env.done();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected done() to throw a ConfigError');
}

describe('EnvReader', () => {
  describe('string', () => {
    it('returns the value when set', () => {
      const env = reader({ HOST: '0.0.0.0' });
      expect(env.string('HOST', '127.0.0.1')).toBe('0.0.0.0');
      expect(() => env.done()).not.toThrow();
    });

    it.each<[string, string | undefined]>([
      ['missing', undefined],
      ['empty', ''],
    ])('falls back to the default when %s', (_name, value) => {
      const env = reader({ HOST: value });
      expect(env.string('HOST', '127.0.0.1')).toBe('127.0.0.1');
      expect(() => env.done()).not.toThrow();
    });

    it.each<[string, string | undefined]>([
      ['missing', undefined],
      ['empty', ''],
    ])('records a problem for a required variable that is %s', (_name, value) => {
      const env = reader({ SECRET: value });
      expect(env.string('SECRET')).toBe('');
      expect(configErrorOf(env).problems).toEqual(['SECRET is required']);
    });

    it('accepts an empty-string default as a default (not as "required")', () => {
      const env = reader({});
      expect(env.string('PREFIX', '')).toBe('');
      expect(() => env.done()).not.toThrow();
    });
  });

  describe('optional', () => {
    it.each<[string | undefined, string | undefined]>([
      [undefined, undefined],
      ['', undefined],
      ['x', 'x'],
    ])('%p → %p', (value, expected) => {
      expect(reader({ V: value }).optional('V')).toBe(expected);
    });
  });

  describe('int', () => {
    it.each<[string | undefined, number]>([
      [undefined, 8080],
      ['', 8080],
      ['0', 0],
      ['1', 1],
      ['65535', 65535],
      ['3000', 3000],
    ])('PORT=%p → %p without problems', (value, expected) => {
      const env = reader({ PORT: value });
      expect(env.int('PORT', 8080, { max: 65535 })).toBe(expected);
      expect(() => env.done()).not.toThrow();
    });

    it.each(['65536', '-1', '1.5', 'abc', '80abc', 'NaN', 'Infinity', '0x10', '1e3', '0b11', '   '])(
      'PORT=%p → the default and a problem',
      (value) => {
        const env = reader({ PORT: value });
        expect(env.int('PORT', 8080, { max: 65535 })).toBe(8080);
        expect(configErrorOf(env).problems).toEqual([`PORT must be an integer between 0 and 65535, got "${value}"`]);
      },
    );

    it('honours a custom minimum', () => {
      const env = reader({ A: '999', B: '1000' });
      expect(env.int('A', 10_000, { min: 1000 })).toBe(10_000);
      expect(env.int('B', 10_000, { min: 1000 })).toBe(1000);
      expect(configErrorOf(env).problems).toEqual([
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
      const env = reader({ FLAG: value });
      expect(env.bool('FLAG', fallback)).toBe(expected);
      expect(() => env.done()).not.toThrow();
    });

    it.each(['on', 'off', 'y', '2', 'truthy'])('%p → the default and a problem', (value) => {
      const env = reader({ FLAG: value });
      expect(env.bool('FLAG', true)).toBe(true);
      expect(configErrorOf(env).problems).toEqual([`FLAG must be true or false, got "${value}"`]);
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
      expect(reader({ L: value }).list('L', ['fallback'])).toEqual(expected);
    });

    it.each<[string | undefined]>([[undefined], ['']])('%p → the default', (value) => {
      expect(reader({ L: value }).list('L', ['x', 'y'])).toEqual(['x', 'y']);
      expect(reader({ L: value }).list('L')).toEqual([]);
    });
  });

  describe('done', () => {
    it('does nothing when everything was valid', () => {
      const env = reader({ A: 'a', N: '5', B: 'true' });
      env.string('A');
      env.int('N', 1);
      env.bool('B', false);
      expect(() => env.done()).not.toThrow();
    });

    it('reports ALL problems at once, in the order they were found', () => {
      const env = reader({ PORT: '99999', VERBOSE: 'maybe', TIMEOUT: '-5' });
      env.string('INTERNAL_CONTEXT_SECRET');
      env.int('PORT', 8080, { max: 65535 });
      env.bool('VERBOSE', false);
      env.string('AMQP_URL');
      env.int('TIMEOUT', 10_000, { min: 1 });
      env.problem('WEBHOOK_RETRY_SCHEDULE needs 8 delays');

      const err = configErrorOf(env);
      expect(err).toBeInstanceOf(Error);
      expect(err.problems).toEqual([
        'INTERNAL_CONTEXT_SECRET is required',
        'PORT must be an integer between 0 and 65535, got "99999"',
        'VERBOSE must be true or false, got "maybe"',
        'AMQP_URL is required',
        `TIMEOUT must be an integer between 1 and ${Number.MAX_SAFE_INTEGER}, got "-5"`,
        'WEBHOOK_RETRY_SCHEDULE needs 8 delays',
      ]);
      expect(err.message).toBe(`invalid configuration:\n  - ${err.problems.join('\n  - ')}`);
      for (const p of err.problems) expect(err.message).toContain(p);
    });

    it('a problem added by the caller alone is enough to fail', () => {
      const env = reader({});
      env.problem('custom check failed');
      expect(configErrorOf(env).problems).toEqual(['custom check failed']);
    });
  });

  it('reads process.env by default', () => {
    const name = `ENV_READER_TEST_${process.pid}`;
    process.env[name] = 'from-process';
    try {
      expect(new EnvReader().string(name)).toBe('from-process');
    } finally {
      delete process.env[name];
    }
  });
});

describe('readBaseConfig', () => {
  it('applies the defaults and requires only the context secret', () => {
    const env = reader({ INTERNAL_CONTEXT_SECRET: 's3cret' });
    expect(readBaseConfig('webhook-dispatcher', 3007, env)).toEqual({
      serviceName: 'webhook-dispatcher',
      port: 3007,
      host: '127.0.0.1',
      mongoUrl: 'mongodb://127.0.0.1:27017',
      mongoDbName: 'travel_webhook_dispatcher',
      amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
      internalContextSecret: 's3cret',
      logLevel: 'info',
      validateResponses: false,
      // docs/configuration.md: 1 s doubling up to 5 min, parked at the 50th failed attempt.
      consumerRetry: { baseMs: 1000, maxDelayMs: 300_000, maxAttempts: 50 },
    });
    expect(() => env.done()).not.toThrow();
  });

  it('derives the database name from MONGO_DB_PREFIX unless MONGO_DB_NAME is set', () => {
    expect(readBaseConfig('reference-fx', 1, reader({ MONGO_DB_PREFIX: 'ci_' })).mongoDbName).toBe('ci_reference_fx');
    expect(
      readBaseConfig('reference-fx', 1, reader({ MONGO_DB_PREFIX: 'ci_', MONGO_DB_NAME: 'explicit' })).mongoDbName,
    ).toBe('explicit');
  });

  it('collects every invalid base setting together', () => {
    const env = reader({ PORT: '70000', VALIDATE_RESPONSES: 'sometimes' });
    readBaseConfig('employees', 3001, env);
    expect(configErrorOf(env).problems).toEqual([
      'PORT must be an integer between 0 and 65535, got "70000"',
      'INTERNAL_CONTEXT_SECRET is required',
      'VALIDATE_RESPONSES must be true or false, got "sometimes"',
    ]);
  });
});
