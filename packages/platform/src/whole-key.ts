// Keys of what a service remembers (docs/decisions/0192): the whole parts, never a hash of them.

/**
 * One Map key for a tuple of strings, each part whole and preceded by its length (`3:abc5:de|fg`): two
 * tuples that differ in any part, or in where one part ends and the next begins, never give the same key,
 * whatever characters the parts hold. A hash, shortened or not, can only make a collision unlikely.
 */
export function wholeKey(...parts: readonly string[]): string {
  let key = '';
  for (const part of parts) key += `${part.length}:${part}`;
  return key;
}
