import { pain001SchemaErrors as schemaErrors } from '../../test/support/xsd';
import { isIban } from '@travel/money';
import { buildPain001, sepaText, type PaymentFile } from './pain001';

// Every file we build is valid against the pain.001.001.09 schema (EPC SCT guidelines 2023, test/fixtures).
// The SWIFT IBAN Registry's examples.
const IBAN = {
  HR: 'HR1210010051863000160',
  CZ: 'CZ6508000000192000145399',
  PL: 'PL61109010140000071219812874',
  SI: 'SI56263300012039086',
};

const file = (currency: string, debtorIban: string, creditorIban: string): PaymentFile => ({
  messageId: '0f0e1d2c-3b4a-4596-8877-665544332211',
  createdAt: new Date('2026-11-23T08:00:00.123Z'),
  executionDate: '2026-11-24',
  currency,
  debtorName: 'Primjer d.o.o. & Co <Zagreb>',
  debtorIban,
  debtorBic: null,
  transfers: [
    {
      endToEndId: '2026-00042',
      amount: '1840.50',
      creditorName: 'Ivo Kovač',
      creditorIban,
      creditorBic: null,
      remittance: 'Putni troškovi 2026-00042',
    },
    {
      endToEndId: '2026-00043',
      amount: '0.01',
      creditorName: 'Łucja Dvořák-Żak',
      creditorIban,
      creditorBic: 'ZABAHR2X',
      remittance: 'Travel expenses 2026-00043',
    },
  ],
});

describe('pain.001.001.09', () => {
  it.each([
    ['EUR (SEPA)', 'EUR', IBAN.HR, IBAN.SI],
    ['CZK (domestic)', 'CZK', IBAN.CZ, IBAN.CZ],
    ['PLN (domestic)', 'PLN', IBAN.PL, IBAN.PL],
  ])('%s is valid against the schema', async (_label, currency, debtor, creditor) => {
    const xml = buildPain001(file(currency, debtor, creditor));
    expect(await schemaErrors(xml)).toEqual([]);
    expect(xml).toContain('<CtrlSum>1840.51</CtrlSum>');
    expect(xml).toContain('<NbOfTxs>2</NbOfTxs>');
    expect(xml).toContain(`<InstdAmt Ccy="${currency}">1840.50</InstdAmt>`);
    expect(xml.includes('<SvcLvl><Cd>SEPA</Cd></SvcLvl>')).toBe(currency === 'EUR');
  });

  it('a broken file is caught by the schema (the validation is real)', async () => {
    const xml = buildPain001(file('EUR', IBAN.HR, IBAN.SI)).replace('<PmtMtd>TRF</PmtMtd>', '<PmtMtd>CHK</PmtMtd>');
    expect((await schemaErrors(xml)).length).toBeGreaterThan(0);
  });

  it('names use the SEPA character set', () => {
    expect(sepaText('Łucja Dvořák-Żak', 70)).toBe('Lucja Dvorak-Zak');
    expect(sepaText('Primjer d.o.o. & Co <Zagreb>', 70)).toBe('Primjer d.o.o. Co Zagreb');
  });

  it('refuses an empty file and non-positive amounts', () => {
    expect(() => buildPain001({ ...file('EUR', IBAN.HR, IBAN.SI), transfers: [] })).toThrow();
    const f = file('EUR', IBAN.HR, IBAN.SI);
    f.transfers[0]!.amount = '-1.00';
    expect(() => buildPain001(f)).toThrow();
  });

  it('checks IBANs (ISO 13616)', () => {
    for (const iban of Object.values(IBAN)) expect(isIban(iban)).toBe(true);
    expect(isIban('HR1210010051863000161')).toBe(false);
  });
});
