import { findBareTaxIds, findTaxIds, validIco, validNip, validOib, validSiTaxNumber, validSkDic } from './tax-ids';

describe('tax ids by their check digits', () => {
  it('OIB: ISO 7064 MOD 11,10', () => {
    // 6,9,4,3,5,1,5,1,5,3 through the MOD 11,10 steps leaves a = 1, so the check digit is (11 - 1) mod 10 = 0.
    expect(validOib('69435151530')).toBe(true);
    expect(validOib('69435151531')).toBe(false);
    expect(validOib('6943515153')).toBe(false);
  });

  it('SI davčna številka: weights 8..2, 11 - sum mod 11', () => {
    // 1*8 = 8; 11 - 8 = 3
    expect(validSiTaxNumber('10000003')).toBe(true);
    expect(validSiTaxNumber('10000004')).toBe(false);
    expect(validSiTaxNumber('01000000')).toBe(false); // never starts with 0
  });

  it('IČO (SK and CZ): weights 8..2, (11 - sum mod 11) mod 10', () => {
    // 2*8+5*7+5*6+9*5+6*4+6*3+4*2 = 176; 176 mod 11 = 0; (11 - 0) mod 10 = 1
    expect(validIco('25596641')).toBe(true);
    expect(validIco('25596642')).toBe(false);
  });

  it('SK DIČ: divisible by 11', () => {
    expect(validSkDic('2020000004')).toBe(true);
    expect(validSkDic('2020000005')).toBe(false);
  });

  it('PL NIP: weights 6,5,7,2,3,4,5,6,7, sum mod 11', () => {
    // 6+10+21+8+15+24+15+12+7 = 118; 118 mod 11 = 8
    expect(validNip('1234563218')).toBe(true);
    expect(validNip('1234563219')).toBe(false);
  });

  it('finds labelled ids in the forms receipts print, with the country prefix on VAT ids', () => {
    expect(findTaxIds('OIB: 69435151530', 'HR')[0]?.id).toEqual({ scheme: 'HR-OIB', value: '69435151530' });
    expect(findTaxIds('ID za DDV: SI10000003', 'SI')[0]?.id).toEqual({ scheme: 'SI-DAVCNA', value: '10000003' });
    expect(findTaxIds('IČ DPH: SK2020000004', 'SK')[0]?.id).toEqual({ scheme: 'SK-ICDPH', value: 'SK2020000004' });
    expect(findTaxIds('DIČ: CZ25596641', 'CZ')[0]?.id).toEqual({ scheme: 'CZ-DIC', value: 'CZ25596641' });
    expect(findTaxIds('IČO: 25596641', 'CZ')[0]?.id).toEqual({ scheme: 'CZ-ICO', value: '25596641' });
    expect(findTaxIds('NIP 123-456-32-18', 'PL')[0]?.id).toEqual({ scheme: 'PL-NIP', value: '1234563218' });
  });

  it('ignores labelled numbers whose check digit fails (a misread digit)', () => {
    expect(findTaxIds('OIB: 69435151531', 'HR')).toEqual([]);
  });

  it("takes an unlabelled number only where it validates as the market's id, as weaker evidence", () => {
    expect(findBareTaxIds('0IB 69435151530', 'HR')).toEqual([
      { id: { scheme: 'HR-OIB', value: '69435151530' }, labelled: false },
    ]);
    expect(findBareTaxIds('Račun 69435151531', 'HR')).toEqual([]);
  });
});
