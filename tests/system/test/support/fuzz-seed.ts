// What the API fuzz (tests/fuzz) needs in its company before schemathesis starts: the keys it calls with
// and records of every kind in the states the operations on them act on, created through the gateway the
// way a partner would. Schemathesis' hooks (tests/fuzz/hooks.py) put these ids into path parameters, so an
// operation on an existing record is not only ever asked about random ids (404), and they replace a record
// an operation used up (an entry submitted, approved, cancelled or deleted).
import { eventually, type ApiClient } from '@travel/testkit';
import { VALID } from '@travel/employees/test/support/org-fixtures';
import type { FullStack } from './full-stack';

export interface FuzzSeed {
  /** The account owner's key (every permission; the operator's key of the company has no cap, 0104). */
  ownerKey: string;
  /** A key of the approver named in the workflow: approve, reject and request-changes (0105). */
  approverKey: string;
  /** A webhook URL that resolves and answers (a local HTTPS receiver of the test CA). */
  receiverUrl: string;
  /** The workflow the hooks put back before they replace an entry waiting for a decision. */
  workflow: Record<string, unknown>;
  /** The PNG the hooks upload to replace a deleted attachment (base64). */
  png: string;
  /**
   * The records the fuzz must not take away from itself: the keys it calls with and their employees. The
   * hooks send the spare key or the traveller instead (schemathesis reuses ids it read from lists).
   */
  protectedIds: { keys: string[]; employees: string[] };
  /** Path ids: `<operationId>.<parameter>` for one operation, `<first path segment>` for `{id}`, else by name. */
  ids: Record<string, string>;
}

/** A 1×1 PNG: the smallest upload both attachments and vehicle documents accept. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The trip and expense of the seeded entries (tests/fuzz/hooks.py makes its replacements alike). */
const TRIP = { departureDate: '2026-11-16', returnDate: '2026-11-18', currencyCode: 'CZK' };
const EXPENSE = { kind: 'Other', date: '2026-11-17', amount: 1250.5, currencyCode: 'CZK', description: 'Taxi' };

type Response = { status: number; text: string; body: any };
async function ok(what: string, res: Promise<Response>, status = 201) {
  const r = await res;
  if (r.status !== status) throw new Error(`seeding ${what}: ${r.status} ${r.text}`);
  return r.body;
}

function png(name: string): FormData {
  const form = new FormData();
  form.append('files', new Blob([Buffer.from(PNG_BASE64, 'base64')], { type: 'image/png' }), name);
  return form;
}

/** A CZ company with an approver, a traveller, org records, vehicles, entries, payout batches and webhooks. */
export async function seedFuzzTenant(stack: FullStack): Promise<FuzzSeed> {
  const tenant = await stack.tenant('CZ');
  const owner: ApiClient = tenant.api;
  const ids: Record<string, string> = {};
  // Bank data on the owner: entries the fuzz creates are the owner's, and payment files need an IBAN.
  const ownerRecord = await ok('the owner', owner.get(`/api/v1/employees/${tenant.employeeId}`), 200);
  const { id: _id, isAccountOwner: _o, createdAt: _c, editedAt: _e, ...ownerWritable } = ownerRecord;
  await ok('bank data', owner.put(`/api/v1/employees/${tenant.employeeId}`, { ...ownerWritable, ...VALID.CZ }), 200);

  const approver = await ok(
    'the approver',
    owner.post('/api/v1/employees', {
      firstName: 'Adam',
      lastName: 'Approver',
      permissions: ['ApproveEntries', 'ReadAllEntries'],
    }),
  );
  // The approver's key is issued by an administrator, not by the owner: nobody decides on their own entry
  // through a key they issued for the approver (0194), and the entries the fuzz approves are the owner's.
  const admin = await ok(
    'the administrator',
    owner.post('/api/v1/employees', {
      firstName: 'Ada',
      lastName: 'Administrator',
      permissions: ['ManageCompanyData', 'ApproveEntries', 'ReadAllEntries'],
    }),
  );
  const adminKey = await ok('a key', owner.post('/api/v1/api-keys', { name: 'administrator', employeeId: admin.id }));
  const approverKey = await ok(
    'a key',
    owner.withKey(adminKey.key).post('/api/v1/api-keys', { name: 'approver', employeeId: approver.id }),
  );
  const workflow = { settlementSteps: [{ approverIds: [approver.id] }], tripApprovalSteps: [] };
  await ok('the workflow', owner.put('/api/v1/approval-workflow', workflow), 200);

  const department = async (code: string) =>
    (await ok('a department', owner.post('/api/v1/departments', { name: `Department ${code}`, code }))).id;
  const costCenter = async (code: string) =>
    (await ok('a cost center', owner.post('/api/v1/cost-centers', { name: `Cost center ${code}`, code }))).id;
  ids.departments = await department('SALES');
  ids['deleteDepartment.id'] = await department('GONE');
  ids['cost-centers'] = await costCenter('CC-1');
  ids['deleteCostCenter.id'] = await costCenter('CC-GONE');
  const traveller = await ok(
    'a traveller',
    owner.post('/api/v1/employees', {
      firstName: 'Tereza',
      lastName: 'Traveller',
      email: 'tereza@example.com',
      departmentId: ids.departments,
      ...VALID.CZ,
    }),
  );
  ids.employees = traveller.id;
  // An approver's delegation (0205): the traveller names a deputy; one to withdraw, the deputy for new ones.
  const deputy = await ok(
    'a deputy',
    owner.post('/api/v1/employees', { firstName: 'Dana', lastName: 'Deputy', email: 'dana@example.com', ...VALID.CZ }),
  );
  ids.delegateId = deputy.id;
  ids['withdrawDelegation.id'] = traveller.id;
  ids.delegationId = (
    await ok(
      'a delegation',
      owner.post(`/api/v1/employees/${traveller.id}/delegations`, {
        delegateId: deputy.id,
        firstDay: '2030-01-07',
        lastDay: '2030-01-18',
        reason: 'Holiday',
      }),
    )
  ).id;
  ids['api-keys'] = (await ok('a key', owner.post('/api/v1/api-keys', { name: 'spare', employeeId: traveller.id }))).id;

  // Vehicles: one to work on, one to delete (a vehicle with costs cannot be); a record of each kind to delete.
  const vehicle = async () =>
    (await ok('a vehicle', owner.post('/api/v1/vehicles', { type: 'Company', name: 'Van', category: 1 }))).id;
  ids.vehicles = await vehicle();
  ids['deleteVehicle.id'] = await vehicle();
  const v = `/api/v1/vehicles/${ids.vehicles}`;
  const cost = { date: '2026-10-12', kind: 'Fuel', amount: 68.4, currency: 'CZK' };
  const deadline = { kind: 'TechnicalInspection', dueDate: '2027-03-15', remindEmployeeIds: [traveller.id] };
  ids.costId = (await ok('a cost', owner.post(`${v}/costs`, cost))).id;
  ids['deleteVehicleCost.costId'] = (await ok('a cost', owner.post(`${v}/costs`, cost))).id;
  ids.deadlineId = (await ok('a deadline', owner.post(`${v}/deadlines`, deadline))).id;
  ids['deleteVehicleDeadline.deadlineId'] = (await ok('a deadline', owner.post(`${v}/deadlines`, deadline))).id;
  ids.documentId = (await ok('a document', owner.post(`${v}/documents`, png('reg.png')))).items[0].id;
  ids['deleteVehicleDocument.documentId'] = (
    await ok('a document', owner.post(`${v}/documents`, png('x.png')))
  ).items[0].id;

  // Entries: a draft to edit (with an expense and an attachment of each use), the rest the hooks replace.
  const draft = async (body: Record<string, unknown> = {}) =>
    (await ok('an entry', owner.post('/api/v1/travel-entries', { ...TRIP, ...body }))).id as string;
  const submitted = async () => {
    const id = await draft({ expenses: [EXPENSE] });
    await ok('submitting', owner.post(`/api/v1/travel-entries/${id}/submit`, {}), 200);
    return id;
  };
  ids['travel-entries'] = await draft({ employeeId: traveller.id });
  // A missing receipt the company accepts a declaration for (0203, 0204): on the key's own entry (only its
  // employee declares), a Meals expense above the policy's threshold; one declared already, to withdraw.
  await ok(
    'an expense policy',
    owner.put('/api/v1/expense-policy', {
      versions: [
        {
          effectiveFrom: '2026-01-01',
          rules: [
            {
              name: 'Meals',
              kind: 'Meals',
              receiptRequiredAbove: 20,
              missingReceiptDeclarationAllowed: true,
              onBreach: 'Flag',
            },
          ],
        },
      ],
    }),
    200,
  );
  const ownEntry = await draft();
  const meal = async () =>
    (
      await ok(
        'a meal',
        owner.post(`/api/v1/travel-entries/${ownEntry}/expenses`, {
          kind: 'Meals',
          date: '2026-11-17',
          amount: 300,
          currencyCode: 'CZK',
        }),
      )
    ).id as string;
  ids['declareMissingReceipt.id'] = ownEntry;
  ids['declareMissingReceipt.expenseId'] = await meal();
  ids['withdrawMissingReceiptDeclaration.id'] = ownEntry;
  ids['withdrawMissingReceiptDeclaration.expenseId'] = await meal();
  await ok(
    'a declaration',
    owner.post(
      `/api/v1/travel-entries/${ownEntry}/expenses/${ids['withdrawMissingReceiptDeclaration.expenseId']}/missing-receipt-declaration`,
      { reason: 'Left in the taxi.' },
    ),
    200,
  );
  const e = `/api/v1/travel-entries/${ids['travel-entries']}`;
  ids.expenseId = (await ok('an expense', owner.post(`${e}/expenses`, EXPENSE))).id;
  ids['deleteExpense.expenseId'] = (await ok('an expense', owner.post(`${e}/expenses`, EXPENSE))).id;
  ids.attachmentId = (await ok('an attachment', owner.post(`${e}/attachments`, png('r.png')))).items[0].id;
  ids['deleteAttachment.attachmentId'] = (
    await ok('an attachment', owner.post(`${e}/attachments`, png('s.png')))
  ).items[0].id;
  for (const op of ['submitTravelEntry', 'cancelTravelEntry', 'deleteTravelEntry']) ids[`${op}.id`] = await draft();
  for (const op of ['approveTravelEntry', 'rejectTravelEntry', 'requestTravelEntryChanges'])
    ids[`${op}.id`] = await submitted();

  // Payout batches: one to read, download and mark sent to the bank (final from then on), one to undo (0191).
  const approved = async () => {
    const id = await submitted();
    await ok('approving', owner.withKey(approverKey.key).post(`/api/v1/travel-entries/${id}/approve`, {}), 200);
    return id;
  };
  const paid = [await approved(), await approved()];
  await eventually(async () => {
    const ready = (await owner.get('/api/v1/payouts/ready?pageSize=100')).body.items ?? [];
    return paid.every((id) => ready.some((r: { id: string }) => r.id === id));
  }, 15_000);
  const batch = async (entryId: string) =>
    (await ok('a batch', owner.post('/api/v1/payouts', { entryIds: [entryId], payoutMethod: 'BankTransfer' }))).id;
  ids.payouts = await batch(paid[0]);
  ids['deletePayoutBatch.id'] = await batch(paid[1]);

  // Webhooks: one at a receiver that answers (its delivery log), one whose receiver fails (a delivery to retry).
  const receiver = await stack.receiver();
  const failing = (await stack.receiver()).replyAlways({ status: 500, body: 'down' });
  const webhook = async (url: string) =>
    (await ok('a webhook', owner.post('/api/v1/webhooks', { url, eventTypes: ['employee.created'] }))).id as string;
  ids.webhooks = await webhook(receiver.url);
  ids['retryDelivery.id'] = await webhook(failing.url);
  ids['deleteWebhook.id'] = await webhook(receiver.url);
  await ok('an event', owner.post('/api/v1/employees', { firstName: 'Webhook', lastName: 'Witness' }));
  // A delivery once it is done (a retry of one still Pending is 409).
  const deliveryOf = (webhookId: string) =>
    eventually(async () => {
      const res = await owner.get(`/api/v1/webhooks/${webhookId}/deliveries`);
      const done = (res.body.items ?? []).find((d: { status: string }) => d.status !== 'Pending');
      return done?.deliveryId as string | undefined;
    }, 30_000);
  ids.deliveryId = await deliveryOf(ids.webhooks);
  ids['retryDelivery.deliveryId'] = await deliveryOf(ids['retryDelivery.id']);

  const keysOf = async (employeeId: string) =>
    (await ok('the keys', owner.get(`/api/v1/api-keys?employeeId=${employeeId}`), 200)).items.map(
      (k: { id: string }) => k.id,
    ) as string[];
  const protectedIds = {
    keys: [...(await keysOf(tenant.employeeId)), ...(await keysOf(approver.id)), ...(await keysOf(admin.id))],
    // The administrator too: archiving them, or taking a flag, would end the approver's key (0197).
    employees: [tenant.employeeId, approver.id, admin.id],
  };

  return {
    protectedIds,
    ownerKey: tenant.apiKey,
    approverKey: approverKey.key,
    receiverUrl: receiver.url,
    workflow,
    png: PNG_BASE64,
    ids,
  };
}
