// The settlement's expense-policy part (issue 39 §1 and §4, docs/decisions/0203, 0204): the findings the
// entry carries and the missing-receipt declarations, in the market's words. Kept apart from the forms'
// label tables: only the settlement prints it, and only when there is something to print.
import type { Market } from '@travel/platform';
import type { TravelEntry } from '../entry';
import type { FindingCheck } from '../policy-findings';
import type { OnBreach } from '../expense-policy';
import { declarationHolds } from '../receipt-declaration';
import type { FormLabels } from './form';
import { formatAmount, formatDate } from './format';

interface PolicyLabels {
  findings: string;
  rule: string;
  limit: string;
  over: string;
  effect: string;
  checks: Record<FindingCheck, string>;
  effects: Record<OnBreach, string>;
  declarations: string;
  /** The declaration's sentence, the reason after the colon. */
  declare: (reason: string) => string;
  declaredBy: string;
}

const LABELS: Record<Market, PolicyLabels> = {
  HR: {
    findings: 'Odstupanja od pravila o troškovima',
    rule: 'Pravilo',
    limit: 'Granica',
    over: 'Iznad granice',
    effect: 'Učinak',
    checks: { PerItem: 'po stavci', PerDay: 'dnevno', PerTrip: 'po putovanju', ReceiptMissing: 'bez računa' },
    effects: { Block: 'sprječava predaju', Flag: 'upozorenje' },
    declarations: 'Izjave o nedostajućem računu',
    declare: (reason) => `Izjavljujem da je račun za ovaj trošak izgubljen: ${reason}`,
    declaredBy: 'Podnositelj izjave',
  },
  SI: {
    findings: 'Odstopanja od pravil o stroških',
    rule: 'Pravilo',
    limit: 'Meja',
    over: 'Nad mejo',
    effect: 'Učinek',
    checks: { PerItem: 'na postavko', PerDay: 'na dan', PerTrip: 'na potovanje', ReceiptMissing: 'brez računa' },
    effects: { Block: 'prepreči oddajo', Flag: 'opozorilo' },
    declarations: 'Izjave o manjkajočem računu',
    declare: (reason) => `Izjavljam, da je račun za ta strošek izgubljen: ${reason}`,
    declaredBy: 'Izjavitelj',
  },
  SK: {
    findings: 'Porušenia pravidiel výdavkov',
    rule: 'Pravidlo',
    limit: 'Limit',
    over: 'Nad limit',
    effect: 'Účinok',
    checks: { PerItem: 'na položku', PerDay: 'na deň', PerTrip: 'na cestu', ReceiptMissing: 'bez dokladu' },
    effects: { Block: 'bráni odoslaniu', Flag: 'upozornenie' },
    declarations: 'Čestné vyhlásenia o chýbajúcom doklade',
    declare: (reason) => `Čestne vyhlasujem, že doklad k tomuto výdavku sa stratil: ${reason}`,
    declaredBy: 'Vyhlasujúci',
  },
  CZ: {
    findings: 'Porušení pravidel výdajů',
    rule: 'Pravidlo',
    limit: 'Limit',
    over: 'Nad limit',
    effect: 'Účinek',
    checks: { PerItem: 'na položku', PerDay: 'na den', PerTrip: 'na cestu', ReceiptMissing: 'bez dokladu' },
    effects: { Block: 'brání odeslání', Flag: 'upozornění' },
    declarations: 'Čestná prohlášení o chybějícím dokladu',
    declare: (reason) => `Čestně prohlašuji, že doklad k tomuto výdaji byl ztracen: ${reason}`,
    declaredBy: 'Prohlašující',
  },
  PL: {
    findings: 'Naruszenia zasad wydatków',
    rule: 'Zasada',
    limit: 'Limit',
    over: 'Ponad limit',
    effect: 'Skutek',
    checks: { PerItem: 'na pozycję', PerDay: 'dziennie', PerTrip: 'na podróż', ReceiptMissing: 'brak dowodu' },
    effects: { Block: 'blokuje złożenie', Flag: 'ostrzeżenie' },
    declarations: 'Oświadczenia o braku dowodu wydatku',
    declare: (reason) => `Oświadczam, że dowód poniesienia tego wydatku zaginął: ${reason}`,
    declaredBy: 'Składający oświadczenie',
  },
};

/** The findings table and the declarations, each only when the entry has any. */
export function policySections(
  m: Market,
  l: FormLabels,
  e: TravelEntry,
  names: ReadonlyMap<string, string>,
): { title: string; fields?: { label: string; value: string }[]; table?: { head: string[]; rows: string[][]; widths: number[] } }[] {
  const p = LABELS[m];
  const base = (text: string) => `${formatAmount(m, text)} ${e.baseCurrency}`;
  const findings = e.policyFindings ?? [];
  const declared = e.expenses.filter((x) => x.missingReceiptDeclaration && declarationHolds(x, x.missingReceiptDeclaration));
  return [
    ...(findings.length
      ? [
          {
            title: p.findings,
            table: {
              head: [l.date, l.kind, p.rule, p.limit, p.over, p.effect],
              widths: [1, 1.2, 2, 1.3, 1.3, 1.2],
              rows: findings.map((f) => [
                formatDate(f.date),
                l.kinds[f.kind],
                `${f.rule} (${p.checks[f.check]})`,
                base(f.limit),
                base(f.amountOver),
                p.effects[f.onBreach],
              ]),
            },
          },
        ]
      : []),
    ...(declared.length
      ? [
          {
            title: p.declarations,
            fields: declared.map((x) => {
              const d = x.missingReceiptDeclaration!;
              return {
                label: `${formatDate(x.date)} ${l.kinds[x.kind]} ${formatAmount(m, x.amount)} ${x.currencyCode}`,
                value: `${p.declare(d.reason)} — ${p.declaredBy}: ${names.get(d.declaredByEmployeeId) ?? ''}, ${formatDate(new Date(d.declaredAt).toISOString().slice(0, 10))}`,
              };
            }),
          },
        ]
      : []),
  ];
}
