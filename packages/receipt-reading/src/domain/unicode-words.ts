// JavaScript's \b only knows ASCII letters: "DIČ:" or "Kč " has no \b after the Č. The same patterns,
// with \b meaning a boundary between a Unicode letter or digit and anything else.
const BOUNDARY = '(?:(?<![\\p{L}\\d])(?=[\\p{L}\\d])|(?<=[\\p{L}\\d])(?![\\p{L}\\d]))';

export function unicodeWords(re: RegExp): RegExp {
  return new RegExp(re.source.replaceAll('\\b', BOUNDARY), re.flags.includes('u') ? re.flags : `${re.flags}u`);
}
