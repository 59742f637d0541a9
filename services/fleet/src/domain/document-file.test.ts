import { jpeg, pdf, png } from '../../test/support/sample-files';
import { checkDocumentBytes, cleanFileName } from './document-file';

describe('checkDocumentBytes', () => {
  it('accepts a PDF, a PNG and a JPEG by their bytes', () => {
    expect(checkDocumentBytes(pdf())).toEqual({ type: 'application/pdf' });
    expect(checkDocumentBytes(png(3, 2))).toEqual({ type: 'image/png' });
    expect(checkDocumentBytes(jpeg())).toEqual({ type: 'image/jpeg' });
  });

  it.each([
    ['empty', Buffer.alloc(0), 'empty'],
    ['text', Buffer.from('hello'), 'PDF, PNG or JPEG'],
    ['a truncated PNG', png().subarray(0, 30), 'PNG'],
    [
      'a PNG with a flipped bit',
      (() => {
        const b = png();
        b[40] ^= 1;
        return b;
      })(),
      'PNG',
    ],
    ['a truncated JPEG', jpeg().subarray(0, 14), 'JPEG'],
    ['a JPEG without a frame', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]), 'JPEG'],
    ['a truncated PDF', pdf().subarray(0, 20), 'PDF'],
  ])('refuses %s', (_label, bytes, problem) => {
    expect(checkDocumentBytes(bytes).problem).toContain(problem);
  });
});

describe('cleanFileName', () => {
  it('drops paths and control characters; falls back to a name by type', () => {
    expect(cleanFileName('C:\\tmp\\..\\reg "card".pdf', 'application/pdf')).toBe('reg card.pdf');
    expect(cleanFileName('../../etc/passwd', 'image/png')).toBe('passwd');
    expect(cleanFileName(undefined, 'image/jpeg')).toBe('document.jpg');
  });
});
