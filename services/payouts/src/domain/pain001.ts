// The bank payment file of a batch: ISO 20022 `pain.001.001.09` (CustomerCreditTransferInitiationV09),
// docs/decisions/0076. EUR: a SEPA credit transfer as the EPC's implementation guidelines (EPC132-08
// 2023 V1.0, the schema in test/fixtures/) describe it. CZK and PLN: the same message as Czech and Polish
// banks take it for domestic transfers (no SEPA service level). Amounts are decimal text throughout.
// Pure: no I/O.
import { Decimal, minorDigits } from '@travel/money';

export const PAIN_001_001_09 = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

export interface Transfer {
  /** End-to-end reference: the entry number (or id); at most 35 characters. */
  endToEndId: string;
  /** Decimal text, positive. */
  amount: string;
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  remittance: string;
}

export interface PaymentFile {
  messageId: string;
  createdAt: Date;
  executionDate: string;
  currency: string;
  debtorName: string;
  debtorIban: string;
  debtorBic: string | null;
  transfers: Transfer[];
}

const escape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/**
 * Text as the SEPA character set allows it (EPC: a-z A-Z 0-9 / - ? : ( ) . , ' + space): letters with
 * diacritics lose them (Dvořák → Dvorak), anything else becomes a space; cut to `max` characters.
 */
export function sepaText(s: string, max: number): string {
  const plain = s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, (c) => (c === 'ł' ? 'l' : 'L'))
    .replace(/[đĐ]/g, (c) => (c === 'đ' ? 'd' : 'D'))
    .replace(/ß/g, 'ss')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (plain || '-').slice(0, max).trim();
}

/** An ISO 20022 identifier (Max35Text) that SEPA also accepts: no leading "/", no "//". */
const reference = (s: string): string => sepaText(s, 35).replace(/\/+/g, '-').replace(/^-+/, '') || 'NOTPROVIDED';

const el = (name: string, body: string, attrs = ''): string => `<${name}${attrs}>${body}</${name}>`;
const text = (name: string, value: string): string => el(name, escape(value));

const agent = (bic: string | null): string =>
  el('FinInstnId', bic ? text('BICFI', bic) : el('Othr', text('Id', 'NOTPROVIDED')));

export const isSepa = (currency: string): boolean => currency === 'EUR';

export function buildPain001(f: PaymentFile): string {
  if (f.transfers.length === 0) throw new Error('a payment file needs at least one transfer');
  const places = minorDigits(f.currency);
  const amounts = f.transfers.map((t) => new Decimal(t.amount));
  if (amounts.some((a) => !a.isPositive() || a.isZero())) throw new Error('every transfer must be positive');
  const sum = amounts.reduce((acc, a) => acc.plus(a), new Decimal(0)).toFixed(places);
  const count = String(f.transfers.length);
  const sepa = isSepa(f.currency);
  const txs = f.transfers
    .map((t) =>
      el(
        'CdtTrfTxInf',
        el('PmtId', text('EndToEndId', reference(t.endToEndId))) +
          el('Amt', el('InstdAmt', new Decimal(t.amount).toFixed(places), ` Ccy="${escape(f.currency)}"`)) +
          (t.creditorBic ? el('CdtrAgt', agent(t.creditorBic)) : '') +
          el('Cdtr', text('Nm', sepaText(t.creditorName, 70))) +
          el('CdtrAcct', el('Id', text('IBAN', t.creditorIban))) +
          el('RmtInf', text('Ustrd', sepaText(t.remittance, 140))),
      ),
    )
    .join('');
  const paymentInfo = el(
    'PmtInf',
    text('PmtInfId', reference(f.messageId)) +
      text('PmtMtd', 'TRF') +
      text('BtchBookg', 'true') +
      text('NbOfTxs', count) +
      text('CtrlSum', sum) +
      (sepa ? el('PmtTpInf', el('SvcLvl', text('Cd', 'SEPA'))) : '') +
      el('ReqdExctnDt', text('Dt', f.executionDate)) +
      el('Dbtr', text('Nm', sepaText(f.debtorName, 70))) +
      el('DbtrAcct', el('Id', text('IBAN', f.debtorIban))) +
      el('DbtrAgt', agent(f.debtorBic)) +
      (sepa ? text('ChrgBr', 'SLEV') : '') +
      txs,
  );
  const header = el(
    'GrpHdr',
    text('MsgId', reference(f.messageId)) +
      text('CreDtTm', f.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z')) +
      text('NbOfTxs', count) +
      text('CtrlSum', sum) +
      el('InitgPty', text('Nm', sepaText(f.debtorName, 70))),
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    el('Document', el('CstmrCdtTrfInitn', header + paymentInfo), ` xmlns="${PAIN_001_001_09}"`) +
    '\n'
  );
}
