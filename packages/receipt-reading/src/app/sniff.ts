/** What the bytes are, by their magic numbers (the declared content type is the uploader's word). */
export function sniff(bytes: Buffer): 'pdf' | 'image' | undefined {
  if (bytes.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  const hex = bytes.subarray(0, 12).toString('hex');
  if (hex.startsWith('ffd8ff') || hex.startsWith('89504e47') || hex.startsWith('47494638')) return 'image';
  if (hex.startsWith('49492a00') || hex.startsWith('4d4d002a')) return 'image';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'image'; // HEIC, AVIF
  return undefined;
}
