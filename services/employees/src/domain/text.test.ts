import { codeKey, escapeRegex, hasControlCharacters, MAX_SEARCH_TERMS, searchTerms, textSearchFilter } from './text';

describe('escapeRegex', () => {
  it.each(['a.b', '(x)', '[y]', 'a*b+c?', '^start$', '{2}', 'a|b', 'back\\slash', 'Kovač', "O'Brien"])(
    'makes %p match itself literally and nothing else',
    (text) => {
      const re = new RegExp(`^${escapeRegex(text)}$`);
      expect(re.test(text)).toBe(true);
      expect(re.test(`${text}x`)).toBe(false);
    },
  );

  it('leaves no wildcard: a dot matches only a dot', () => {
    expect(new RegExp(escapeRegex('a.b')).test('axb')).toBe(false);
  });
});

describe('searchTerms', () => {
  it('splits on whitespace, lower-cases and drops duplicates', () => {
    expect(searchTerms('  Ana   HORVAT ana ')).toEqual(['ana', 'horvat']);
  });

  it('is empty for nothing or blanks', () => {
    expect(searchTerms(undefined)).toEqual([]);
    expect(searchTerms('   ')).toEqual([]);
  });

  it(`uses at most ${MAX_SEARCH_TERMS} words`, () => {
    expect(searchTerms('a b c d e f g')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('textSearchFilter', () => {
  it('requires every word in one of the fields, literally and case-insensitively', () => {
    expect(textSearchFilter('an.a (h', ['firstName', 'lastName'])).toEqual({
      $and: [
        {
          $or: [{ firstName: { $regex: 'an\\.a', $options: 'i' } }, { lastName: { $regex: 'an\\.a', $options: 'i' } }],
        },
        { $or: [{ firstName: { $regex: '\\(h', $options: 'i' } }, { lastName: { $regex: '\\(h', $options: 'i' } }] },
      ],
    });
  });

  it('is no filter at all without words', () => {
    expect(textSearchFilter(undefined, ['name'])).toEqual({});
    expect(textSearchFilter(' ', ['name'])).toEqual({});
  });
});

describe('hasControlCharacters', () => {
  it.each(['a\u0000b', 'tab\there', 'new\nline', 'del\u007f', 'c1\u0085', 'ls\u2028'])('finds one in %j', (value) => {
    expect(hasControlCharacters(value)).toBe(true);
  });

  it.each(['Ana', 'Kovač-Šimić', "O'Brien", 'Łódź', '李'])('finds none in %p', (value) => {
    expect(hasControlCharacters(value)).toBe(false);
  });
});

describe('codeKey', () => {
  it('compares codes case-insensitively and without surrounding spaces', () => {
    expect(codeKey(' cc-1 ')).toBe(codeKey('CC-1'));
    expect(codeKey('cc-1')).not.toBe(codeKey('cc-2'));
  });
});
