import { isUuid } from './ids';

describe('isUuid', () => {
  it('accepts the shape of record ids, in either case', () => {
    expect(isUuid('0b3e0f0e-0000-4000-8000-000000000001')).toBe(true);
    expect(isUuid('0B3E0F0E-0000-4000-8000-00000000000A')).toBe(true);
  });

  it.each([['x'], [''], ['0b3e0f0e-0000-4000-8000-00000000000'], ['../employees'], [42], [null]])(
    'refuses %p',
    (value) => expect(isUuid(value)).toBe(false),
  );
});
