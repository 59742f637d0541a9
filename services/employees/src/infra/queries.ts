import { escapeRegex, searchTerms } from '../domain/text';

/**
 * A MongoDB filter where every word of `q` occurs, case-insensitively and literally (escaped before it
 * becomes a `$regex`, which FerretDB supports), in at least one of `fields`. The caller adds the tenant scope.
 */
export function textSearchFilter(q: string | undefined, fields: readonly string[]): Record<string, unknown> {
  const terms = searchTerms(q);
  if (terms.length === 0) return {};
  return {
    $and: terms.map((term) => ({
      $or: fields.map((field) => ({ [field]: { $regex: escapeRegex(term), $options: 'i' } })),
    })),
  };
}
