import { textSearchFilter } from './queries';

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
