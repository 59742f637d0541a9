// The language the configuration is written in: one zod schema per environment variable, each carrying
// the documentation docs/configuration.md is generated from (`npm run config:generate`), and the rules
// for key material (a short or malformed secret stops the start; no message repeats it: decision 0101).
import { z } from 'zod';
import { rawKey } from '../context-keys';

/** What the configuration page says about one variable. */
export interface EnvDoc {
  /** The accepted values, e.g. `integer 0–65535`. */
  type: string;
  /** The default as shown (markdown); absent means required. */
  default?: string;
  description: string;
  /** The page section whose table lists the variable (see `envSection`). */
  section?: string;
  /** Key material: a short or malformed value stops the start, and no message repeats it (0101). */
  secret?: boolean;
}

/** The documentation of every variable schema built with `env.*` (docs/configuration.md is made from it). */
export const envDocs = z.registry<EnvDoc>();

/** One environment variable: a raw string (or unset) in, a typed value out. */
export type EnvVar<T = unknown> = z.ZodType<T, string | undefined>;
export type EnvShape = Record<string, EnvVar>;

const code = (value: string) => `\`${value}\``;

/**
 * An unset or empty variable reaches `read` as undefined (so the default applies: a variable can't be set
 * to "" on purpose). A problem is a phrase that follows the variable's name ("is required"); one that
 * starts with ':' is appended directly ("WEBHOOK_RETRY_SCHEDULE: …").
 */
function variable<T>(doc: EnvDoc, read: (raw: string | undefined, problem: (message: string) => void) => T): EnvVar<T> {
  const schema = z
    .string()
    .optional()
    .transform((value, ctx) => {
      const problems: string[] = [];
      const result = read(value === '' ? undefined : value, (message) => problems.push(message));
      for (const message of problems) ctx.addIssue({ code: 'custom', message, input: value });
      return result;
    });
  return schema.register(envDocs, doc);
}

/** A required variable read by `parse`, whose thrown message is the problem; `fallback` then. */
function requiredVariable<T, F>(doc: EnvDoc, parse: (text: string) => T, fallback: F): EnvVar<T | F> {
  return variable<T | F>(doc, (raw, problem) => {
    if (raw === undefined) {
      problem('is required');
      return fallback;
    }
    try {
      return parse(raw);
    } catch (err) {
      problem((err as Error).message);
      return fallback;
    }
  });
}

const isHttpUrl = (u: string): boolean => /^https?:\/\/\S+$/.test(u);

interface Described {
  description: string;
}

const required = '**required**';

/** Builders of variable schemas; each carries its documentation. */
export const env = {
  /** A string; without a default, the variable is required. */
  string(o: Described & { default?: string; type?: string }): EnvVar<string> {
    return variable(
      {
        type: o.type ?? 'string',
        default: o.default === undefined ? required : code(o.default),
        description: o.description,
      },
      (raw, problem) => {
        if (raw !== undefined) return raw;
        if (o.default !== undefined) return o.default;
        problem('is required');
        return '';
      },
    );
  },

  /**
   * A service's base URL, or its replicas' separated by commas: calls go round robin over them and skip
   * one that refuses connections (docs/decisions/0214). In a cluster, one URL: the Kubernetes Service.
   */
  urls(o: Described & { default: string }): EnvVar<string> {
    return variable(
      { type: 'URL, or URLs separated by commas', default: code(o.default), description: o.description },
      (raw, problem) => {
        if (raw === undefined) return o.default;
        const urls = raw
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean);
        if (urls.length === 0 || !urls.every(isHttpUrl))
          problem(`must be one http(s) URL or several separated by commas, got "${raw}"`);
        return urls.join(',');
      },
    );
  },

  /** A string that may stay unset. */
  optional(o: Described & { type?: string; default?: string }): EnvVar<string | undefined> {
    return variable(
      { type: o.type ?? 'string', default: o.default ?? 'unset', description: o.description },
      (raw) => raw,
    );
  },

  /** Plain decimal digits only: `0x10`, `1e3` or blanks are typos, not numbers. */
  int(o: Described & { default: number; min?: number; max?: number; note?: string }): EnvVar<number> {
    const min = o.min ?? 0;
    const max = o.max ?? Number.MAX_SAFE_INTEGER;
    const type = max === Number.MAX_SAFE_INTEGER ? `integer ≥ ${min}` : `integer ${min}–${max}`;
    return variable(
      { type, default: code(String(o.default)) + (o.note ? ` (${o.note})` : ''), description: o.description },
      (raw, problem) => {
        if (raw === undefined) return o.default;
        const value = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
        if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
        problem(`must be an integer between ${min} and ${max}, got "${raw}"`);
        return o.default;
      },
    );
  },

  /** `true`/`false`, `1`/`0` or `yes`/`no`, any case. */
  bool(o: Described & { default: boolean }): EnvVar<boolean> {
    return variable(
      { type: 'boolean', default: code(String(o.default)), description: o.description },
      (raw, problem) => {
        if (raw === undefined) return o.default;
        if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
        if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
        problem(`must be true or false, got "${raw}"`);
        return o.default;
      },
    );
  },

  /** Comma-separated; blanks around the commas and empty items are ignored. */
  list(o: Described & { default?: string[]; type?: string }): EnvVar<string[]> {
    const fallback = o.default ?? [];
    return variable(
      {
        type: o.type ?? 'comma-separated list',
        default: fallback.length ? code(fallback.join(',')) : 'empty',
        description: o.description,
      },
      (raw) =>
        raw === undefined
          ? fallback
          : raw
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
    );
  },

  /** An http(s) URL. */
  url(o: Described & { default: string }): EnvVar<string> {
    return variable({ type: 'http(s) URL', default: code(o.default), description: o.description }, (raw, problem) => {
      const value = raw ?? o.default;
      if (!/^https?:\/\//.test(value)) problem(`must be an http(s) URL, got "${value}"`);
      return value;
    });
  },

  /** One of a fixed set of words. */
  oneOf<const W extends string>(o: Described & { values: readonly W[]; default: W }): EnvVar<W> {
    return variable(
      { type: o.values.map(code).join(', '), default: code(o.default), description: o.description },
      (raw, problem) => {
        if (raw === undefined) return o.default;
        if ((o.values as readonly string[]).includes(raw)) return raw as W;
        problem(`must be one of ${o.values.join(', ')}, got "${raw}"`);
        return o.default;
      },
    );
  },

  /**
   * A required text turned into a value by `parse`, whose thrown message becomes the problem. Made for key
   * material: a message must never repeat the text (docs/decisions/0101).
   */
  required<T>(o: Described & { type: string; secret?: boolean }, parse: (text: string) => T): EnvVar<T | undefined> {
    const doc = { type: o.type, default: required, description: o.description, ...(o.secret ? { secret: true } : {}) };
    return requiredVariable(doc, parse, undefined);
  },

  /** A required random key of exactly `bytes` bytes in base64: a shorter one stops the start (0101). */
  secretKey(o: Described & { bytes: number }): EnvVar<string> {
    const doc = {
      type: `${o.bytes} random bytes, base64`,
      default: required,
      description: o.description,
      secret: true,
    };
    return requiredVariable(
      doc,
      (text) => {
        rawKey(text, o.bytes);
        return text.trim();
      },
      '',
    );
  },

  /** A text turned into a value by `parse`, whose thrown message becomes the problem (`fallback` then). */
  parsed<T>(
    o: Described & { type: string; default: string; defaultLabel?: string; fallback: T },
    parse: (text: string) => T,
  ): EnvVar<T> {
    return variable(
      { type: o.type, default: o.defaultLabel ?? (o.default ? code(o.default) : 'empty'), description: o.description },
      (raw, problem) => {
        try {
          return parse(raw ?? o.default);
        } catch (err) {
          problem(`: ${(err as Error).message}`);
          return o.fallback;
        }
      },
    );
  },
};

/** Files the variables of `shape` under a section of the configuration page. */
export function envSection<S extends EnvShape>(section: string, shape: S): S {
  for (const schema of Object.values(shape)) envDocs.add(schema, { ...envDocs.get(schema)!, section });
  return shape;
}
