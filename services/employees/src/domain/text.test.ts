import {
  addFieldError,
  codeKey,
  escapeRegex,
  hasControlCharacters,
  MAX_SEARCH_TERMS,
  optionalText,
  requiredText,
  searchTerms,
} from './text';

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

describe('requiredText and optionalText', () => {
  it('trim; a blank required text is a problem, a blank optional one is null', () => {
    expect(requiredText('  Ana ')).toEqual({ value: 'Ana' });
    expect(requiredText('   ')).toEqual({ value: '', problem: 'must not be blank' });
    expect(optionalText('  x ')).toEqual({ value: 'x' });
    expect(optionalText('   ')).toEqual({ value: null });
    expect(optionalText(null)).toEqual({ value: null });
    expect(optionalText(undefined)).toEqual({ value: null });
  });

  it('refuse control characters, allowing line breaks and tabs only in multi-line text', () => {
    expect(requiredText('A\u0000')).toMatchObject({ problem: 'must not contain control characters' });
    expect(optionalText('line 1\nline 2')).toMatchObject({ problem: 'must not contain control characters' });
    expect(optionalText('line 1\n\tline 2', true)).toEqual({ value: 'line 1\n\tline 2' });
    expect(optionalText('bell\u0007', true)).toMatchObject({ problem: 'must not contain control characters' });
  });
});

describe('addFieldError', () => {
  it('collects messages per field and ignores an absent message', () => {
    const errors = {};
    addFieldError(errors, 'a', 'one');
    addFieldError(errors, 'a', undefined);
    addFieldError(errors, 'a', 'two');
    expect(errors).toEqual({ a: ['one', 'two'] });
  });
});
