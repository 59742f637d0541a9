// generated from research/foreign/HR.md by scripts/import-research.ts; do not edit (docs/decisions/0187).
// The rows read (Afghanistan to Iceland, alphabetical in Croatian); every later row is unread: unknown.
// HR: 36 statutory, 0 reported rows.
import type { ForeignRate, LegalSource, ReportedRate } from '../../types';

const S0: LegalSource = {
  act: 'Odluka o visini dnevnice za službeno putovanje u inozemstvo za korisnike koji se financiraju iz sredstava državnog proračuna (NN 16/24)',
  provision: 'čl. 7 st. 2 Pravilnika o porezu na dohodak; točka I. Odluke',
  reportedBy: 'rrif.hr (12.02.2024)',
};

const rate = (
  countryCode: string,
  amount: string,
  currency: string,
  effectiveFrom: string,
  effectiveTo: string | null,
  source: LegalSource,
  hotelLimit?: string,
): ForeignRate => ({
  market: 'HR',
  countryCode,
  amount,
  currency,
  ...(hotelLimit === undefined ? {} : { hotelLimit }),
  effectiveFrom,
  effectiveTo,
  source,
});

export const FOREIGN_RATES: ForeignRate[] = [
  rate('AF', '50.00', 'USD', '2024-02-08', null, S0),
  rate('AL', '50.00', 'EUR', '2024-02-08', null, S0),
  rate('DZ', '50.00', 'USD', '2024-02-08', null, S0),
  rate('AD', '90.00', 'EUR', '2024-02-08', null, S0),
  rate('AO', '50.00', 'USD', '2024-02-08', null, S0),
  rate('AR', '55.00', 'USD', '2024-02-08', null, S0),
  rate('AM', '50.00', 'EUR', '2024-02-08', null, S0),
  rate('AU', '100.00', 'USD', '2024-02-08', null, S0),
  rate('AT', '90.00', 'EUR', '2024-02-08', null, S0),
  rate('AZ', '55.00', 'USD', '2024-02-08', null, S0),
  rate('BE', '90.00', 'EUR', '2024-02-08', null, S0),
  rate('BY', '50.00', 'EUR', '2024-02-08', null, S0),
  rate('BO', '50.00', 'USD', '2024-02-08', null, S0),
  rate('BA', '50.00', 'EUR', '2024-02-08', null, S0),
  rate('BR', '55.00', 'USD', '2024-02-08', null, S0),
  rate('BG', '70.00', 'EUR', '2024-02-08', null, S0),
  rate('CY', '80.00', 'EUR', '2024-02-08', null, S0),
  rate('ME', '50.00', 'EUR', '2024-02-08', null, S0),
  rate('CZ', '80.00', 'EUR', '2024-02-08', null, S0),
  rate('CL', '55.00', 'USD', '2024-02-08', null, S0),
  rate('DK', '90.00', 'EUR', '2024-02-08', null, S0),
  rate('KP', '50.00', 'USD', '2024-02-08', null, S0),
  rate('EG', '55.00', 'USD', '2024-02-08', null, S0),
  rate('EE', '80.00', 'EUR', '2024-02-08', null, S0),
  rate('ET', '50.00', 'USD', '2024-02-08', null, S0),
  rate('PH', '50.00', 'USD', '2024-02-08', null, S0),
  rate('FI', '90.00', 'EUR', '2024-02-08', null, S0),
  rate('FR', '90.00', 'EUR', '2024-02-08', null, S0),
  rate('GR', '70.00', 'EUR', '2024-02-08', null, S0),
  rate('GE', '50.00', 'EUR', '2024-02-08', null, S0),
  rate('IN', '50.00', 'USD', '2024-02-08', null, S0),
  rate('ID', '50.00', 'USD', '2024-02-08', null, S0),
  rate('IQ', '60.00', 'USD', '2024-02-08', null, S0),
  rate('IR', '60.00', 'USD', '2024-02-08', null, S0),
  rate('IE', '90.00', 'EUR', '2024-02-08', null, S0),
  rate('IS', '90.00', 'EUR', '2024-02-08', null, S0),
];

export const REPORTED_RATES: ReportedRate[] = [];
