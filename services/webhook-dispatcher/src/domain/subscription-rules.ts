import { WEBHOOK_EVENT_TYPES } from '@travel/contracts';
import type { FieldErrors } from '@travel/platform';
import { DEFAULT_SIGNATURE_SCHEME, SIGNATURE_SCHEMES, type SignatureScheme } from './signature-scheme';

/** The longest URL a subscription stores (the contract's `maxLength`, held here too: decision 0107). */
export const MAX_URL_LENGTH = 2048;

/**
 * Checks of a registration that need no network: length, scheme, credentials, host, event types, the
 * signature scheme (the contract's enum, held here too: decision 0107).
 */
export function checkRegistration(
  url: string,
  eventTypes: string[],
  signatureScheme: SignatureScheme = DEFAULT_SIGNATURE_SCHEME,
): { errors: FieldErrors; parsed?: URL } {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!Array.isArray(eventTypes)) return { errors: { eventTypes: ['must be array'] } };
  let parsed: URL | undefined;
  if (typeof url !== 'string' || url.length > MAX_URL_LENGTH)
    add('url', typeof url !== 'string' ? 'must be string' : `must NOT have more than ${MAX_URL_LENGTH} characters`);
  else
    try {
      parsed = new URL(url);
    } catch {
      add('url', 'must be an absolute URL');
    }
  if (parsed) {
    if (parsed.protocol !== 'https:') add('url', 'must use HTTPS');
    if (parsed.username || parsed.password) add('url', 'must not contain credentials');
    if (!parsed.hostname) add('url', 'must name a host');
    if (parsed.hash) add('url', 'must not contain a fragment');
  }
  if (!SIGNATURE_SCHEMES.includes(signatureScheme))
    add('signatureScheme', `must be one of ${SIGNATURE_SCHEMES.map((s) => `"${s}"`).join(', ')}`);
  if (eventTypes.length === 0) add('eventTypes', 'must name at least one event type');
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  const seen = new Set<string>();
  for (const type of eventTypes) {
    if (!known.has(type)) add('eventTypes', `"${type}" is not an event type`);
    else if (seen.has(type)) add('eventTypes', `"${type}" is listed twice`);
    seen.add(type);
  }
  return { errors, parsed: Object.keys(errors).length ? undefined : parsed };
}
