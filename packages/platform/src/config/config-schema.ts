// Configuration is read from the environment once at boot, by one zod schema per service (the variables of
// env-variables.ts; the parts every service shares in shared-settings.ts). Every problem is collected and
// reported together, each naming its variable, so a misconfigured pod fails fast with the full list instead
// of one variable per restart.
import { z } from 'zod';
import type { EnvShape } from './env-variables';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

export type Env = Record<string, string | undefined>;

export type Values<S extends EnvShape> = { [K in keyof S]: z.output<S[K]> };
export type Check<S extends EnvShape> = (
  values: Values<S>,
  problem: (variable: keyof S & string, message: string) => void,
) => void;

/** The configuration schema of one process: its variables, and the typed configuration they make. */
export interface ConfigSchema<T> {
  service: string;
  shape: EnvShape;
  schema: z.ZodType<T, Env>;
}

/** A process's schema from its variables, checks across variables, and the mapping to its config type. */
export function defineConfig<S extends EnvShape, T>(
  service: string,
  shape: S,
  build: (values: Values<S>) => T,
  checks: Check<S>[] = [],
): ConfigSchema<T> {
  const schema = z
    .object(shape)
    // Checks across variables run even when a variable was invalid (it then holds its default), so the
    // list names every problem at once.
    .superRefine(
      (values, ctx) => {
        for (const check of checks)
          check(values as Values<S>, (variable, message) =>
            ctx.addIssue({
              code: 'custom',
              message,
              path: [variable],
              input: (values as Record<string, unknown>)[variable],
            }),
          );
      },
      { when: () => true },
    )
    .transform((values) => build(values as Values<S>));
  return { service, shape, schema: schema as unknown as z.ZodType<T, Env> };
}

const problemOf = (issue: z.core.$ZodIssue): string => {
  const name = issue.path.map(String).join('.');
  return issue.message.startsWith(':') ? `${name}${issue.message}` : `${name} ${issue.message}`;
};

/** Parses the environment with a process's schema; throws ConfigError listing every problem. */
export function parseConfig<T>(config: ConfigSchema<T>, source: Env = process.env): T {
  const result = config.schema.safeParse(source);
  if (!result.success) throw new ConfigError(result.error.issues.map(problemOf));
  return result.data;
}
