import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '@travel/contracts';
import { AppError, fieldKey, type FieldErrors } from '@travel/platform';

// The multipart form of the entry create carries the entry as a JSON part named `entry`. The request
// validator sees only a string there, so the part is checked here against the same contract schema as
// the JSON create (TravelEntryCreate), with the same field keys.

let validate: ReturnType<Ajv2020['compile']> | undefined;

function validator() {
  if (validate) return validate;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  const doc = openApiDocument() as { components: { schemas: Record<string, unknown> } };
  ajv.addSchema({ $id: 'contract', components: doc.components });
  validate = ajv.compile({ $ref: 'contract#/components/schemas/TravelEntryCreate' });
  return validate;
}

/** The entry of a multipart create: parsed and checked, or 400 with field-keyed errors. */
export function parseEntryPart(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string')
    throw new AppError('VALIDATION_FAILED', undefined, { entry: ['is required (a JSON part)'] });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new AppError('VALIDATION_FAILED', undefined, { entry: ['must be JSON'] });
  }
  const check = validator();
  if (!check(body)) {
    const errors: FieldErrors = {};
    for (const e of check.errors ?? []) {
      const extra =
        e.keyword === 'additionalProperties'
          ? `/${(e.params as { additionalProperty: string }).additionalProperty}`
          : '';
      const key = fieldKey(`/body${e.instancePath}${extra}`) || 'entry';
      (errors[key === 'body' ? 'entry' : key] ??= []).push(e.message ?? 'is invalid');
    }
    throw new AppError('VALIDATION_FAILED', undefined, errors);
  }
  return body as Record<string, unknown>;
}
