// Attachments stored before the receipts service existed (docs/decisions/0202), through the gateway on real
// RabbitMQ and FerretDB: an attachment written the way the old code did (bytes and the entry's list, no
// event) is `Pending` with nothing to make its reading; after an entries boot (the back-fill) it is read.
// Each attachment is announced once: not again by a later pass, not an attachment announced when stored,
// not one of a deleted entry.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import amqp, { type ChannelModel } from 'amqplib';
import { urlEnv } from '@travel/contracts';
import { start as startEntries } from '@travel/entries/src/service';
import { ReadingBackfill } from '@travel/entries/src/app/reading-backfill';
import { AttachmentStore } from '@travel/entries/src/infra/attachment-store';
import { companyMarkets } from '@travel/entries/src/infra/company-markets';
import { entriesRepositories } from '@travel/entries/src/infra/repositories';
import { EmployeesClient } from '@travel/contracts';
import { createLogger, DOMAIN_EXCHANGE, internalTransports, type RunningService } from '@travel/platform';
import { eventually, repoRoot, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const FIXTURES = join(repoRoot(), 'packages', 'receipt-reading', 'test', 'fixtures');
const HR_FISCAL = readFileSync(join(FIXTURES, 'hr-002.jpg'));
const HR_TRUTH = JSON.parse(readFileSync(join(FIXTURES, 'hr-002.json'), 'utf8')) as {
  fields: { totalAmount: string };
};
const NOT_A_RECEIPT = readFileSync(join(FIXTURES, 'none-000.jpg'));

describe('attachments stored before the receipts service get their reading, once', () => {
  let stack: EntriesStack;
  let receipts: RunningService;
  let rebooted: RunningService | undefined;
  let api: ApiClient;
  let apiKey: string;
  let tenantId: string;
  let mq: ChannelModel;
  const announced = new Map<string, number>();

  const entriesEnv = () => ({
    ...process.env,
    ...stack.env.vars,
    ...urlEnv({ employees: stack.employees.url, 'reference-fx': stack.referenceFx.url }),
  });

  beforeAll(async () => {
    stack = await startEntriesStack('receipts-backfill');
    receipts = await (
      await import('@travel/receipts/src/service')
    ).start({ ...process.env, ...stack.env.vars, ENTRIES_URL: stack.entries.url, READING_IDLE_POLL_MS: '100' });
    ({ api, apiKey, tenantId } = await stack.tenant('HR'));
    // Every `entries.attachment.stored` published, counted per attachment.
    mq = await amqp.connect(stack.env.amqpUrl);
    const ch = await mq.createChannel();
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, DOMAIN_EXCHANGE, 'entries.attachment.stored');
    await ch.consume(queue, (msg) => {
      if (!msg) return;
      const id = (JSON.parse(msg.content.toString()) as { data: { attachmentId: string } }).data.attachmentId;
      announced.set(id, (announced.get(id) ?? 0) + 1);
      ch.ack(msg);
    });
  }, 120_000);
  afterAll(async () => {
    await rebooted?.stop();
    await receipts?.stop();
    await mq?.close();
    await stack?.stop();
  });

  const newEntry = async () =>
    (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-19', returnDate: '2026-11-20' })).body
      .id as string;

  /** As the code before 0200 stored an attachment: its bytes, then the entry's list; no event, no mark. */
  async function storeTheOldWay(entryId: string, fileName: string, bytes: Buffer): Promise<string> {
    const conn = stack.entries.deps.mongo;
    const id = randomUUID();
    await new AttachmentStore(conn).put(id, bytes, { tenantId, entryId, fileName, contentType: 'image/jpeg' });
    await conn.db!.collection('travel_entries').updateOne({ _id: entryId as never }, {
      $push: {
        attachments: { _id: id, fileName, contentType: 'image/jpeg', size: bytes.length, createdAt: new Date() },
      },
      $unset: { readingsAnnounced: '' },
    } as never);
    return id;
  }

  const readingPath = (entryId: string, id: string) => `/api/v1/travel-entries/${entryId}/attachments/${id}/reading`;
  const reading = async (entryId: string, id: string) => (await api.get(readingPath(entryId, id))).body;

  it('an old attachment stays Pending until entries boots; then it is read, each attachment announced once', async () => {
    // Stored today: announced in the upload's write.
    const current = await newEntry();
    const form = new FormData();
    form.append('files', new Blob([HR_FISCAL], { type: 'image/jpeg' }), 'today.jpg');
    const up = await fetch(`${stack.gateway.url}/api/v1/travel-entries/${current}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
    expect(up.status).toBe(201);
    const today = ((await up.json()) as { items: Array<{ id: string }> }).items[0]!.id;

    // Stored before: a receipt and a photo that is no receipt; and one of an entry deleted since.
    const old = await newEntry();
    const receipt = await storeTheOldWay(old, 'hotel.jpg', HR_FISCAL);
    const landscape = await storeTheOldWay(old, 'landscape.jpg', NOT_A_RECEIPT);
    const gone = await newEntry();
    const ofDeleted = await storeTheOldWay(gone, 'taxi.jpg', HR_FISCAL);
    expect((await api.delete(`/api/v1/travel-entries/${gone}`)).status).toBe(204);

    // Today's is read; the old ones wait with nothing to make their reading (the marker: today's done).
    await eventually(async () => (await reading(current, today)).state !== 'Pending', 120_000, 250);
    expect(await reading(old, receipt)).toMatchObject({ state: 'Pending', fields: {} });
    expect(await reading(old, landscape)).toMatchObject({ state: 'Pending' });

    // The upgrade: entries boots (a replica of the new version) and back-fills.
    rebooted = await startEntries(entriesEnv());
    const read = await eventually(
      async () => {
        const r = await reading(old, receipt);
        return r.state !== 'Pending' && r;
      },
      180_000,
      250,
    );
    expect(read.state).toBe('Read');
    expect(read.fields.totalAmount).toMatchObject({ value: HR_TRUTH.fields.totalAmount, source: 'fiscal-qr' });
    const other = await eventually(
      async () => {
        const r = await reading(old, landscape);
        return r.state !== 'Pending' && r;
      },
      120_000,
      250,
    );
    expect(other).toMatchObject({ state: 'Unreadable', reason: expect.any(String) });

    // Another pass (the next boot, the migrate job) finds nothing left: every entry is marked.
    const conn = stack.entries.deps.mongo;
    const employees = new EmployeesClient(
      internalTransports('entries', stack.env.signingKey)('employees', stack.employees.url),
    );
    const again = new ReadingBackfill(
      entriesRepositories(conn),
      companyMarkets(employees),
      createLogger('backfill-test', 'silent'),
    );
    expect(await again.pass()).toEqual({ announced: 0, conflicts: 0 });
    // Published once each (the events before the pass were published: the readings above were made).
    expect(Object.fromEntries(announced)).toEqual({ [today]: 1, [receipt]: 1, [landscape]: 1 });
    expect(announced.has(ofDeleted)).toBe(false);
  }, 400_000);
});
