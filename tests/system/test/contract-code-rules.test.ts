// The contract says what the code enforces (issue 21, docs/decisions/0119): every IBAN and BIC a request
// takes carries the code's pattern, every currency or country code a request takes is one of the code's
// lists (the contract's `CurrencyCode` and `CountryCode` enums), and every free text a request takes
// carries the text rules' pattern (no control characters; not blank where required). The lists and
// patterns are written once, in the code; these tests fail when the contract drifts from them.
import { BIC_PATTERN, CURRENCY_CODES, IBAN_PATTERN } from '@travel/money';
import { IDEMPOTENCY_KEY_PATTERN } from '@travel/platform';
import { PHONE_PATTERN } from '@travel/employees/src/domain/employee';
import { TAX_ID_PATTERN } from '@travel/employees/src/domain/tax-id';
import { COUNTRY_CODES } from '@travel/regulations';
import { JOURNAL_ACCOUNT_NUMBER } from '@travel/entries/src/domain/journal';
import { blankOr, MULTI_LINE_TEXT, NON_BLANK_SINGLE_LINE_TEXT, SINGLE_LINE_TEXT } from '@travel/text-rules';
import { doc, METHODS, resolve, type Json } from './support/contract-doc';

/** A value a request carries: a parameter or a (nested) body property, with its schema as written. */
interface RequestField {
  where: string;
  name: string;
  schema: Json;
}

/** Every parameter and every writable body property of every operation's request. */
function requestFields(): RequestField[] {
  const fields: RequestField[] = [];
  const visit = (where: string, node: unknown, depth: number, seen: Set<unknown>) => {
    const schema = resolve(node);
    if (!schema || depth > 12 || seen.has(schema)) return;
    const inner = new Set(seen).add(schema);
    for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
      const resolved = resolve(raw);
      if (raw.readOnly === true || resolved?.readOnly === true) continue; // accepted and ignored
      fields.push({ where: `${where}.${name}`, name, schema: raw });
      visit(`${where}.${name}`, raw, depth + 1, inner);
    }
    if (schema.items) visit(`${where}[]`, schema.items, depth + 1, inner);
    for (const key of ['oneOf', 'anyOf', 'allOf'])
      for (const member of (schema[key] ?? []) as unknown[]) visit(where, member, depth + 1, inner);
  };
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>))
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const parameters = [...((item.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])];
      for (const p of parameters.map(resolve)) {
        if (p?.in === 'query' || p?.in === 'path')
          fields.push({ where: `${where} ?${p.name as string}`, name: p.name as string, schema: p.schema as Json });
      }
      const content = (resolve(op.requestBody)?.content ?? {}) as Record<string, Json>;
      for (const [mediaType, media] of Object.entries(content))
        visit(`${where} ${mediaType}`, media.schema, 0, new Set());
    }
  return fields;
}

/** Whether a schema as written is the named component, a list of it, or it or null. */
function isComponent(schema: Json | undefined, component: string): boolean {
  if (!schema) return false;
  if (schema.$ref === `#/components/schemas/${component}`) return true;
  if (schema.items) return isComponent(schema.items as Json, component);
  const members = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  return (
    !!members &&
    members.some((m) => isComponent(m, component)) &&
    members.every((m) => isComponent(m, component) || m.type === 'null')
  );
}

const fields = requestFields();
const unique = <T>(values: T[]) => [...new Set(values)];

describe('IBAN and BIC in the contract are checked as the code checks them', () => {
  const ibans = fields.filter((f) => /iban|bankAccount/i.test(f.name));
  const bics = fields.filter((f) => /bic$/i.test(f.name));

  it('finds the IBANs and BICs requests take (the employee, the payment file)', () => {
    expect(unique(ibans.map((f) => f.name)).sort()).toEqual(['bankAccount', 'debtorIban']);
    expect(unique(bics.map((f) => f.name)).sort()).toEqual(['bic', 'debtorBic']);
  });

  it.each(ibans.map((f) => [f.where, f] as const))('%s carries the IBAN pattern of @travel/money', (_w, f) => {
    // An optional field (it may be null) also takes a blank, which stores none.
    const optional = Array.isArray(f.schema.type) && f.schema.type.includes('null');
    expect(f.schema.pattern).toBe((optional ? blankOr(IBAN_PATTERN) : IBAN_PATTERN).source);
  });

  it.each(bics.map((f) => [f.where, f] as const))('%s carries the BIC pattern of @travel/money', (_w, f) => {
    const optional = Array.isArray(f.schema.type) && f.schema.type.includes('null');
    expect(f.schema.pattern).toBe((optional ? blankOr(BIC_PATTERN) : BIC_PATTERN).source);
  });
});

describe("currency and country codes in the contract are the code's lists", () => {
  const schemas = (doc.components as Json).schemas as Record<string, Json>;

  it('CurrencyCode lists exactly the currencies @travel/money knows (CURRENCY_CODES)', () => {
    expect(schemas.CurrencyCode!.enum).toEqual([...CURRENCY_CODES]);
  });

  it('CountryCode lists exactly the countries @travel/regulations knows (COUNTRY_CODES)', () => {
    expect(schemas.CountryCode!.enum).toEqual([...COUNTRY_CODES]);
  });

  const currencies = fields.filter((f) => /^(currency|currencyCode|currencyCodes)$/.test(f.name));
  const countries = fields.filter((f) => /^(country|countryCode|countryCodes|destinationCountryCode)$/.test(f.name));

  it('finds the currency and country codes requests take', () => {
    expect(currencies.length).toBeGreaterThanOrEqual(7);
    expect(countries.length).toBeGreaterThanOrEqual(7);
  });

  it.each(currencies.map((f) => [f.where, f] as const))('%s is a CurrencyCode', (_w, f) => {
    expect(isComponent(f.schema, 'CurrencyCode')).toBe(true);
  });

  it.each(countries.map((f) => [f.where, f] as const))('%s is a CountryCode', (_w, f) => {
    expect(isComponent(f.schema, 'CountryCode')).toBe(true);
  });
});

describe('free text in the contract carries the text rules of @travel/text-rules', () => {
  /** The string a field takes, through a `$ref` or a `oneOf` with null. */
  const stringSchema = (schema: Json): Json | undefined => {
    const resolved = resolve(schema);
    const members = (resolved?.oneOf ?? resolved?.anyOf) as Json[] | undefined;
    if (members) return members.map(resolve).find((m) => m?.type === 'string');
    const type = resolved?.type;
    return type === 'string' || (Array.isArray(type) && type.includes('string')) ? resolved : undefined;
  };
  // Strings that are not free text, each with the rule that holds it instead.
  const OWN_RULES: Record<string, string> = {
    email: 'format: email',
    url: 'a webhook URL: parsed, HTTPS, and its host resolved (docs/decisions/0119)',
    code: 'RecordCode has its own pattern (docs/decisions/0107)',
    bankAccount: 'the IBAN pattern',
    debtorIban: 'the IBAN pattern',
    bic: 'the BIC pattern',
    debtorBic: 'the BIC pattern',
    departureLocationPlaceId: 'a map provider id, stored as sent (only its length is bounded)',
    destinationPlaceId: 'a map provider id, stored as sent (only its length is bounded)',
    placeId: 'a map provider id, stored as sent (only its length is bounded)',
    overrideReason: 'stored as written (only its length is bounded)',
    comment: 'stored as written (only its length is bounded)',
    q: 'a search, matched as words: nothing is stored',
    cursor: 'an opaque cursor: base64url by its pattern, decoded and checked by the code (docs/decisions/0156)',
    phone: 'the phone pattern',
    taxId: 'the tax-id pattern',
  };
  // The journal's account numbers are not free text: they carry the account-number pattern (0144).
  const isAccount = (where: string) => where.startsWith('PUT /api/v1/journal-accounts ');
  const PATTERNS = [SINGLE_LINE_TEXT, NON_BLANK_SINGLE_LINE_TEXT, MULTI_LINE_TEXT].map((p) => p.source);
  const texts = fields
    .map((f) => ({ ...f, text: stringSchema(f.schema) }))
    .filter((f) => f.text && f.text.maxLength !== undefined && !f.text.enum && !f.text.format)
    .filter((f) => !(f.name in OWN_RULES) || f.name === 'phone' || f.name === 'taxId');

  it('finds the free text requests take', () => {
    expect(unique(texts.map((f) => f.name)).sort()).toEqual(
      expect.arrayContaining(['address', 'description', 'firstName', 'licensePlate', 'name', 'note', 'title']),
    );
  });

  it.each(texts.map((f) => [f.where, f] as const))('%s carries a text rule pattern', (_w, f) => {
    if (isAccount(f.where)) expect(f.text!.pattern).toBe(JOURNAL_ACCOUNT_NUMBER.source);
    else if (f.name === 'phone') expect(f.text!.pattern).toBe(blankOr(PHONE_PATTERN).source);
    else if (f.name === 'taxId') expect(f.text!.pattern).toBe(blankOr(TAX_ID_PATTERN).source);
    else expect(PATTERNS).toContain(f.text!.pattern);
  });
});

// The gateway answers any operation 429 (its rate limits, 0115) and 503 (the service behind it, or that
// service's store or broker, away: 0121), so every operation declares both; an undeclared status breaks the
// contract for a client that generates code from it (and becomes a 500 where responses are validated).
describe('statuses every operation can answer', () => {
  const operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => [`${m.toUpperCase()} ${path}`, item[m] as Json] as const),
  );

  it.each(operations)('%s lists 429 RateLimited and 503 ServiceUnavailable', (_where, op) => {
    const responses = op.responses as Record<string, Json>;
    expect(responses['429']?.$ref).toBe('#/components/responses/RateLimited');
    expect(responses['503']?.$ref).toBe('#/components/responses/ServiceUnavailable');
  });
});

// Every POST of the API takes an Idempotency-Key (issue 35 §3, docs/decisions/0195): the one reusable
// parameter, and the answers it adds, 409 (in use) and 422 (reused). The POSTs are read from the contract.
describe('every POST takes an Idempotency-Key', () => {
  const posts = Object.entries(doc.paths as Record<string, Json>)
    .filter(([path, item]) => path.startsWith('/api/v1/') && item.post)
    .map(([path, item]) => [`POST ${path}`, item.post as Json] as const);

  it('finds the POSTs (creates, actions, calculators)', () => {
    expect(posts.length).toBeGreaterThanOrEqual(20);
  });

  it.each(posts)('%s references the IdempotencyKey parameter and lists 400, 409 and 422', (_where, op) => {
    const parameters = (op.parameters ?? []) as Json[];
    expect(parameters.map((p) => p.$ref)).toContain('#/components/parameters/IdempotencyKey');
    const responses = op.responses as Record<string, Json>;
    // A malformed key is 400 VALIDATION_FAILED, on an operation without a body too.
    expect(responses['400']).toBeDefined();
    expect(responses['409']?.$ref).toBe('#/components/responses/Conflict');
    expect(responses['422']?.$ref).toBe('#/components/responses/IdempotencyKeyReused');
  });

  it('the parameter is the header, bounded as the code bounds it', () => {
    const parameters = (doc.components as Json).parameters as Record<string, Json>;
    const parameter = parameters.IdempotencyKey!;
    const schema = parameter.schema as { maxLength: number; pattern: string };
    expect(parameter).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
    expect(schema.maxLength).toBe(255);
    expect(new RegExp(schema.pattern).source).toBe(IDEMPOTENCY_KEY_PATTERN.source);
  });
});
