// Issue 39 §1 and §4 (first bullet) through the gateway (docs/decisions/0203, 0204): a company expense policy
// with per-item, per-day and per-trip caps and receipt rules, an HR entry (base EUR) with a CHF expense, the
// findings with the amounts worked out by hand, the blocked submit keyed by the expense, a flag that does
// not block, the missing-receipt declaration (own key only; accepted or not by the rule), receipts named
// by attachment, and the settlement PDF listing the findings and the declaration.
import { execFileSync } from 'node:child_process';
import { limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { eventually, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const ENTRIES = '/api/v1/travel-entries';
const POLICY = '/api/v1/expense-policy';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const textOf = (pdf: Buffer): string =>
  execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString('utf8').replace(/\s+/g, ' ');

describe('expense policy: findings, blocked submit, missing-receipt declaration', () => {
  let stack: EntriesStack;
  let api: ApiClient;
  let apiKey: string;
  let ownerId: string;

  beforeAll(async () => {
    stack = await startEntriesStack('expense-policy');
    const t = await stack.tenant('HR');
    api = t.api;
    apiKey = t.apiKey;
    ownerId = t.employeeId;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const POLICY_BODY = {
    versions: [
      {
        effectiveFrom: '2026-01-01',
        rules: [
          { name: 'Parking', kind: 'Parking', maxPerItem: 40, maxPerDay: 60, onBreach: 'Flag' },
          { name: 'Hotel', kind: 'Accommodation', maxPerTrip: 200, onBreach: 'Block' },
          {
            name: 'Meals',
            kind: 'Meals',
            receiptRequiredAbove: 20,
            missingReceiptDeclarationAllowed: true,
            onBreach: 'Block',
          },
          { name: 'Taxi', kind: 'PublicTransport', receiptRequiredAbove: 10, onBreach: 'Flag' },
        ],
      },
    ],
  };

  it('GET/PUT: read by every key, written with ManageCompanyData, validated by field, a GET body is a PUT body', async () => {
    const empty = await api.get(POLICY);
    expect(empty.body).toEqual({ versions: [], editedAt: null });
    const bad = await api.put(POLICY, {
      versions: [
        { effectiveFrom: '2026-01-01', rules: [{ name: 'x', kind: 'Meals', maxPerItem: 1.234, onBreach: 'Flag' }] },
        {
          effectiveFrom: '2026-01-01',
          rules: [
            {
              name: 'y',
              kind: 'Meals',
              departmentId: '00000000-0000-4000-8000-000000000000',
              maxPerDay: 5,
              onBreach: 'Block',
            },
          ],
        },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'versions[0].rules[0].maxPerItem',
      'versions[1].effectiveFrom',
      'versions[1].rules[0].departmentId',
    ]);
    const put = await api.put(POLICY, POLICY_BODY);
    expect(put.status).toBe(200);
    const got = await api.get(POLICY);
    expect(got.body.versions[0].rules[0]).toEqual({
      name: 'Parking',
      kind: 'Parking',
      departmentId: null,
      costCenterId: null,
      maxPerItem: 40,
      maxPerDay: 60,
      maxPerTrip: null,
      receiptRequiredAbove: null,
      missingReceiptDeclarationAllowed: false,
      onBreach: 'Flag',
    });
    // The GET body sent back is a no-op: the same editedAt.
    const again = await api.put(POLICY, got.body);
    expect(again.body.editedAt).toBe(got.body.editedAt);
    // An employee without ManageCompanyData reads it, but may not replace it.
    const employee = await limitedCaller(api, []);
    expect((await employee.api.get(POLICY)).status).toBe(200);
    expect((await employee.api.put(POLICY, got.body)).status).toBe(403);
  });

  it('judges the entry, blocks submit keyed by the expense, takes the own declaration, lists it all on the PDF', async () => {
    await api.put(POLICY, POLICY_BODY);
    const entry = await api.post(ENTRIES, {
      departureDate: '2026-11-20',
      returnDate: '2026-11-21',
      purpose: 'Sajam',
      destination: 'Zürich',
      destinationCountryCode: 'CH',
    });
    expect(entry.status).toBe(201);
    const id = entry.body.id as string;
    const add = async (body: Record<string, unknown>) => {
      const res = await api.post(`${ENTRIES}/${id}/expenses`, { date: '2026-11-20', ...body });
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
      return res.body;
    };
    // CHF 50 at HNB 0.925323 CHF/EUR on 2026-11-20 = 54.0352… → 54.04 € (as entries-documents.test.ts).
    const parking = await add({ kind: 'Parking', amount: 50, currencyCode: 'CHF' });
    expect(parking.amountInBaseCurrency).toBe(54.04);
    await add({ kind: 'Parking', amount: 10 });
    const hotel = await add({ kind: 'Accommodation', amount: 250, date: '2026-11-21' });
    const meals = await add({ kind: 'Meals', amount: 30 });
    const taxi = await add({ kind: 'PublicTransport', amount: 15 });

    const detail = (await api.get(`${ENTRIES}/${id}`)).body;
    // Parking per item: 54.04 − 40 = 14.04 over. Parking on 20 Nov: 54.04 + 10.00 = 64.04 − 60 = 4.04 over.
    // Meals 30 without a receipt: 30 − 20 = 10.00 above the threshold (Block). Taxi 15: 15 − 10 = 5.00 (Flag).
    // Hotel over the trip: 250 − 200 = 50.00 over (Block).
    const brief = (f: Record<string, unknown>) => [
      f.rule,
      f.check,
      f.expenseId,
      f.date,
      f.amount,
      f.limit,
      f.amountOver,
      f.onBreach,
    ];
    expect(detail.policyFindings.map(brief)).toEqual([
      ['Parking', 'PerItem', parking.id, '2026-11-20', 54.04, 40, 14.04, 'Flag'],
      ['Meals', 'ReceiptMissing', meals.id, '2026-11-20', 30, 20, 10, 'Block'],
      ['Taxi', 'ReceiptMissing', taxi.id, '2026-11-20', 15, 10, 5, 'Flag'],
      ['Parking', 'PerDay', null, '2026-11-20', 64.04, 60, 4.04, 'Flag'],
      ['Hotel', 'PerTrip', null, null, 250, 200, 50, 'Block'],
    ]);

    // Submit: 400 keyed by the blocking expenses (hotel expenses[2], meals expenses[3]); flags do not block.
    const refused = await api.post(`${ENTRIES}/${id}/submit`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(refused.body.errors).sort()).toEqual(['expenses[2]', 'expenses[3]']);
    expect(refused.body.errors['expenses[2]'][0]).toMatch(/'Hotel'.*50\.00 EUR/);

    // The declaration: another employee's key (one with every entry right) is 403; the taxi rule takes none (409).
    const admin = await limitedCaller(api, ['ReadAllEntries', 'EditAllEntries']);
    const declarationOf = (x: { id: string }) => `${ENTRIES}/${id}/expenses/${x.id}/missing-receipt-declaration`;
    const reason = 'Račun je ostao u taksiju.';
    expect((await admin.api.post(declarationOf(meals), { reason })).status).toBe(403);
    const notAccepted = await api.post(declarationOf(taxi), { reason });
    expect(notAccepted.status).toBe(409);
    expect((await api.post(declarationOf(meals), { reason: '' })).status).toBe(400);
    const declared = await api.post(declarationOf(meals), { reason });
    expect(declared.status).toBe(200);
    expect(declared.body.missingReceiptDeclaration).toMatchObject({ reason, declaredByEmployeeId: ownerId });
    expect(declared.body.missingReceiptDeclaration.digest).toMatch(/^[0-9a-f]{64}$/);

    // The taxi gets its receipt: an attachment of the entry named by the expense (an unknown id is 400).
    const form = new FormData();
    form.append('files', new Blob([PDF], { type: 'application/pdf' }), 'taxi.pdf');
    const uploaded = await fetch(`${stack.gateway.url}${ENTRIES}/${id}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const attachmentId = ((await uploaded.json()) as { items: { id: string }[] }).items[0].id;
    const taxiNow = (await api.get(`${ENTRIES}/${id}/expenses/${taxi.id}`)).body;
    const unknown = await api.put(`${ENTRIES}/${id}/expenses/${taxi.id}`, {
      ...taxiNow,
      receiptAttachmentIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors)).toEqual(['receiptAttachmentIds']);
    const named = await api.put(`${ENTRIES}/${id}/expenses/${taxi.id}`, {
      ...taxiNow,
      receiptAttachmentIds: [attachmentId],
    });
    expect(named.body.receiptAttachmentIds).toEqual([attachmentId]);

    // The hotel comes down to 190 (≤ 200): no per-trip finding; the parking flags remain and do not block.
    const hotelNow = (await api.get(`${ENTRIES}/${id}/expenses/${hotel.id}`)).body;
    expect((await api.put(`${ENTRIES}/${id}/expenses/${hotel.id}`, { ...hotelNow, amount: 190 })).status).toBe(200);
    const before = (await api.get(`${ENTRIES}/${id}`)).body;
    expect(before.policyFindings.map(brief)).toEqual([
      ['Parking', 'PerItem', parking.id, '2026-11-20', 54.04, 40, 14.04, 'Flag'],
      ['Parking', 'PerDay', null, '2026-11-20', 64.04, 60, 4.04, 'Flag'],
    ]);
    const submitted = await api.post(`${ENTRIES}/${id}/submit`, {});
    expect({ status: submitted.status, body: submitted.body }).toMatchObject({ status: 200 });
    // Submitted (no workflow: approved at once): the declaration can no longer be withdrawn.
    expect((await api.delete(declarationOf(meals))).status).toBe(409);

    const pdf = await api.bytes(`${ENTRIES}/${id}/documents/settlement`);
    expect(pdf.status).toBe(200);
    const text = textOf(pdf.body);
    const owner = (await api.get(`/api/v1/employees/${ownerId}`)).body;
    const today = new Date().toISOString().slice(0, 10).split('-').reverse().join('.');
    expect(text).toContain('Odstupanja od pravila o troškovima');
    // HR amounts: 40,00 EUR limit, 14,04 EUR over; 60,00 EUR and 4,04 EUR on the day.
    for (const figure of ['40,00 EUR', '14,04 EUR', '60,00 EUR', '4,04 EUR', 'upozorenje'])
      expect(text).toContain(figure);
    expect(text).toContain('Izjave o nedostajućem računu');
    // The declaration is a paragraph: wherever its lines break, its words follow one another.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(`Izjavljujem da je račun za ovaj trošak izgubljen: ${reason}`);
    expect(flat).toContain(`Podnositelj izjave: ${owner.firstName} ${owner.lastName}, ${today}`);
  });
  it('events: a declaration and its withdrawal are each one entry.updated; a policy change raises none', async () => {
    const t = await stack.tenant('HR');
    const receiver = await stack.receiver();
    await t.api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['entry.updated'] });
    expect((await t.api.put(POLICY, POLICY_BODY)).status).toBe(200); // no entry has changed: nothing
    const entry = (await t.api.post(ENTRIES, { departureDate: '2026-11-20', returnDate: '2026-11-21' })).body;
    const expenses = `${ENTRIES}/${entry.id}/expenses`;
    const meals = (await t.api.post(expenses, { kind: 'Meals', date: '2026-11-20', amount: 30 })).body; // 1
    const declaration = `${expenses}/${meals.id}/missing-receipt-declaration`;
    expect((await t.api.post(declaration, { reason: 'Lost on the train.' })).status).toBe(200); // 2
    expect((await t.api.delete(declaration)).status).toBe(204); // 3
    const stricter = structuredClone(POLICY_BODY);
    stricter.versions[0]!.rules[0]!.maxPerItem = 35;
    expect((await t.api.put(POLICY, stricter)).status).toBe(200); // a policy change alone: nothing
    const marker = await t.api.put(`${ENTRIES}/${entry.id}`, { ...entry, destination: 'Marker' }); // 4
    expect(marker.status).toBe(200);
    await eventually(async () =>
      receiver.requests.some((r) => JSON.parse(r.body.toString('utf8')).data.editedAt === marker.body.editedAt),
    );
    const events = receiver.requests.map((r) => JSON.parse(r.body.toString('utf8')));
    expect(events.map((e) => [e.type, e.data.id])).toEqual(Array(4).fill(['entry.updated', entry.id]));
  });
});
