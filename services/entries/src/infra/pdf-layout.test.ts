import PDFDocument from 'pdfkit';
import { fieldHeight } from './pdf-layout';

// A label that wraps (PL "Stan licznika (początkowy / końcowy)") must push the next row down, or the two
// overlap on paper.
describe('a form row', () => {
  const doc = new PDFDocument({ size: 'A4', margin: 40 });

  it('is as tall as its label when the label wraps and the value does not', () => {
    const short = fieldHeight(doc, { label: 'Zaliczka', value: '300,00 PLN' });
    const wrapped = fieldHeight(doc, { label: 'Stan licznika (początkowy / końcowy)', value: '' });
    expect(wrapped).toBeGreaterThan(short * 1.5);
  });

  it('is as tall as its value when the value wraps', () => {
    const long = 'Vyhláška č. 489/2025 Sb.; Zákon č. 262/2006 Sb., zákoník práce, §170, §179 '.repeat(4);
    expect(fieldHeight(doc, { label: 'Právní základ', value: long })).toBeGreaterThan(
      fieldHeight(doc, { label: 'Právní základ', value: 'x' }) * 1.5,
    );
  });
});
