import { crc32 } from 'node:zlib';
import { jpeg, pdf, png } from '../../test/support/sample-files';
import { checkDocumentBytes, cleanFileName } from './document-file';

describe('checkDocumentBytes', () => {
  it('accepts a PDF, a PNG and a JPEG by their bytes', async () => {
    expect(await checkDocumentBytes(pdf())).toEqual({ type: 'application/pdf' });
    expect(await checkDocumentBytes(png(3, 2))).toEqual({ type: 'image/png' });
    expect(await checkDocumentBytes(jpeg())).toEqual({ type: 'image/jpeg' });
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
  ])('refuses %s', async (_label, bytes, problem) => {
    expect((await checkDocumentBytes(bytes)).problem).toContain(problem);
  });

  it('refuses an image larger than 50 megapixels by its header, before inflating anything', async () => {
    // IHDR says 50,000 × 50,000; the image data is not even a zlib stream.
    const bomb = png(1, 1);
    bomb.writeUInt32BE(50_000, 16);
    bomb.writeUInt32BE(50_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    bomb.fill(0, 41, 45);
    expect((await checkDocumentBytes(bomb)).problem).toBe(
      'is an image of 50000 × 50000 pixels; at most 50,000,000 pixels are accepted',
    );
    const bigFrame = jpeg();
    bigFrame.writeUInt16BE(10_000, 7);
    bigFrame.writeUInt16BE(10_000, 9);
    expect((await checkDocumentBytes(bigFrame)).problem).toContain('10000 × 10000 pixels');
  });

  it('refuses image data that inflates to more than its declared size', async () => {
    const ihdrOf = png(2, 2);
    const longer = png(2, 3);
    // The IDAT of a 2 × 3 image under the header of a 2 × 2 one.
    const idat = longer.subarray(33, longer.length - 12);
    const mixed = Buffer.concat([ihdrOf.subarray(0, 33), idat, ihdrOf.subarray(ihdrOf.length - 12)]);
    expect((await checkDocumentBytes(mixed)).problem).toContain('does not match its size');
  });
});

describe('cleanFileName', () => {
  it('drops paths and control characters; falls back to a name by type', () => {
    expect(cleanFileName('C:\\tmp\\..\\reg "card".pdf', 'application/pdf')).toBe('reg card.pdf');
    expect(cleanFileName('../../etc/passwd', 'image/png')).toBe('passwd');
    expect(cleanFileName(undefined, 'image/jpeg')).toBe('document.jpg');
  });
});
