import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

/** pain.001.001.09 as the EPC's SCT guidelines 2023 restrict it (see test/fixtures/README.md). */
const XSD = readFileSync(
  join(__dirname, '..', 'fixtures', 'pain.001.001.09.EPC132-08_2023_V1.0_SCT_C2PSP.xsd'),
  'utf8',
);

/** libxml2's (xmllint, compiled to WebAssembly) schema errors of a payment file; empty when it is valid. */
export async function pain001SchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'payment-file.xml', contents: xml }],
    schema: [{ fileName: 'pain.001.001.09.xsd', contents: XSD }],
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}
