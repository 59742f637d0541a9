import { pageTotal } from './tenant-scope';

describe('pageTotal: the envelope agrees with its items', () => {
  it('keeps the count when the page agrees with it', () => {
    expect(pageTotal(45, 20, 20, 20)).toBe(45);
    expect(pageTotal(45, 40, 20, 5)).toBe(45);
  });
  it('a row created between the count and the page: counted 0, one returned on page 1', () => {
    expect(pageTotal(0, 0, 20, 1)).toBe(1);
  });
  it('a short page ends the list where it ends (rows removed meanwhile)', () => {
    expect(pageTotal(45, 20, 20, 3)).toBe(23);
    expect(pageTotal(3, 0, 20, 0)).toBe(0);
  });
  it('a full page means at least that many', () => {
    expect(pageTotal(30, 20, 20, 20)).toBe(40);
  });
  it('an empty page past the end keeps the count', () => {
    expect(pageTotal(12, 40, 20, 0)).toBe(12);
  });
});
