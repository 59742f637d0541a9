import { extractFields } from './extract-fields';
import { parseVatLine } from './vat';

const hr = [
  'Konoba Mate',
  'Riva 4, Split',
  'OIB: 69435151530',
  'Račun br. 12/1/1',
  '29.11.2026.          14:05',
  'Ručak menu',
  '  2 x 61,70          123,40',
  'UKUPNO EUR           123,40',
  'GOTOVINA             150,00',
  'POVRAT                26,60',
  'PDV 25%      98,72   24,68',
];

describe('fields from text lines', () => {
  it('a Croatian receipt: total on the UKUPNO line (not the cash tendered), EUR, date, time, OIB, VAT', () => {
    const f = extractFields(hr, 'ocr', 'HR');
    expect(f.totalAmount?.value).toBe('123.40');
    expect(f.currencyCode?.value).toBe('EUR');
    expect(f.date?.value).toBe('2026-11-29');
    expect(f.time?.value).toBe('14:05');
    expect(f.merchantName?.value).toBe('Konoba Mate');
    expect(f.merchantTaxId?.value).toEqual({ scheme: 'HR-OIB', value: '69435151530' });
    expect(f.vat?.value).toEqual([{ rate: '25', base: '98.72', amount: '24.68' }]);
  });

  it('prefers a fiscal code over the text, with confidence 1', () => {
    const f = extractFields(hr, 'ocr', 'HR', {
      market: 'HR',
      totalAmount: '123.40',
      date: '2026-11-29',
      time: '14:05',
    });
    expect(f.totalAmount).toEqual({ value: '123.40', confidence: 1, source: 'fiscal-qr' });
  });

  it('a guess is a low confidence: no total keyword, the largest amount', () => {
    const f = extractFields(['Something', '12,00', '30,50'], 'ocr', 'CZ');
    expect(f.totalAmount?.value).toBe('30.50');
    expect(f.totalAmount!.confidence).toBeLessThan(0.5);
    expect(f.currencyCode).toEqual({ value: 'CZK', confidence: 0.3, source: 'ocr' }); // the market's, weakly
  });

  it('Czech and Polish totals, currencies and ids', () => {
    const cz = extractFields(
      ['Bistro Anděl', 'IČO: 25596641', 'DIČ: CZ25596641', 'CELKEM      1 250,00 Kč'],
      'ocr',
      'CZ',
    );
    expect(cz.totalAmount?.value).toBe('1250.00');
    expect(cz.currencyCode?.value).toBe('CZK');
    expect(cz.merchantTaxId?.value).toEqual({ scheme: 'CZ-DIC', value: 'CZ25596641' });
    const pl = extractFields(
      ['ORLEN S.A.', 'NIP 123-456-32-18', '2026-03-01 10:00', 'SUMA PLN     45,99'],
      'pdf-text',
      'PL',
    );
    expect(pl.totalAmount?.value).toBe('45.99');
    expect(pl.currencyCode?.value).toBe('PLN');
    expect(pl.date?.value).toBe('2026-03-01');
  });

  it("VAT rows only at the market's rates", () => {
    expect(parseVatLine('DDV 9,5%   10,00  0,95', 'SI')).toEqual({ rate: '9.5', base: '10.00', amount: '0.95' });
    expect(parseVatLine('DPH 20%   10,00  2,00', 'SK')).toBeUndefined(); // SK's rates are 23, 19, 5 from 2025
    expect(parseVatLine('DPH 12%   100,00  12,00', 'CZ')).toEqual({ rate: '12', base: '100.00', amount: '12.00' });
  });
});
