// Vehicle deadlines and their e-mail reminders (issue 11): registration, technical inspection,
// insurance, service, vignette or custom; whom to remind and how many days before; the reminder job sends
// the e-mails through SMTP (a local sink here) once per due date. ManageVehicles for writes.
import type { ApiClient } from '@travel/testkit';
import { eventually } from '@travel/testkit';
import { employee, limitedCaller, MISSING_ID, unique } from '@travel/employees/test/support/org-fixtures';
import { startFleetStack, type FleetStack } from './support/fleet-stack';

const DEADLINE_KEYS = [
  'createdAt',
  'dueDate',
  'editedAt',
  'id',
  'kind',
  'lastReminderSentAt',
  'nextReminderOn',
  'note',
  'remindDaysBefore',
  'remindEmployeeIds',
  'title',
  'vehicleId',
];

const day = (offset: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

describe('vehicle deadlines', () => {
  let stack: FleetStack;
  let api: ApiClient;
  let vehicleId: string;
  let plate: string;

  beforeAll(async () => {
    // The reminder job runs every 200 ms here instead of hourly.
    stack = await startFleetStack('fleet-deadlines', { REMINDER_INTERVAL_MS: '200' });
    api = (await stack.tenant('HR')).api;
    plate = unique('ZG-');
    vehicleId = (await api.post('/api/v1/vehicles', { type: 'Company', name: 'Van', licensePlate: plate, category: 1 }))
      .body.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const mailsTo = (address: string) => stack.smtp.messages.filter((m) => m.to.includes(address));

  it('create, list (soonest first), full-replace update (a GET body PUT back is valid), delete', async () => {
    const a = await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, { kind: 'Insurance', dueDate: day(200) });
    expect(a.status).toBe(201);
    expect(Object.keys(a.body).sort()).toEqual(DEADLINE_KEYS);
    expect(a.body).toMatchObject({
      kind: 'Insurance',
      title: null,
      remindEmployeeIds: [],
      remindDaysBefore: 14,
      nextReminderOn: null, // nobody to remind
      lastReminderSentAt: null,
    });
    const b = await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, {
      kind: 'Custom',
      title: 'Winter tyres',
      dueDate: day(100),
      note: 'Before November',
    });
    expect(b.status).toBe(201);
    const list = await api.get(`/api/v1/vehicles/${vehicleId}/deadlines`);
    expect(list.body.items.map((d: any) => d.id)).toEqual([b.body.id, a.body.id]);

    const echoed = await api.put(`/api/v1/vehicles/${vehicleId}/deadlines/${b.body.id}`, b.body);
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({ ...b.body, editedAt: expect.any(String) });
    const replaced = await api.put(`/api/v1/vehicles/${vehicleId}/deadlines/${b.body.id}`, {
      kind: 'Vignette',
      dueDate: day(90),
    });
    expect(replaced.body).toMatchObject({ kind: 'Vignette', title: null, note: null });

    for (const kind of ['Registration', 'TechnicalInspection', 'Service'])
      expect((await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, { kind, dueDate: day(300) })).status).toBe(201);
    expect((await api.delete(`/api/v1/vehicles/${vehicleId}/deadlines/${a.body.id}`)).status).toBe(204);
    expect((await api.delete(`/api/v1/vehicles/${vehicleId}/deadlines/${a.body.id}`)).status).toBe(404);
  });

  it('field rules: kind, a title for Custom, a calendar due date, 0..365 days, recipients of the company', async () => {
    const other = await stack.tenant('SI');
    const stranger = await employee(other.api, { email: `${unique('x')}@example.com` });
    const bad: [Record<string, unknown>, string][] = [
      [{ kind: 'Parking', dueDate: day(10) }, 'kind'],
      [{ kind: 'Custom', dueDate: day(10) }, 'title'],
      [{ kind: 'Service', dueDate: '2027-02-30' }, 'dueDate'],
      [{ kind: 'Service', dueDate: day(10), remindDaysBefore: 366 }, 'remindDaysBefore'],
      [{ kind: 'Service', dueDate: day(10), remindDaysBefore: -1 }, 'remindDaysBefore'],
      [{ kind: 'Service', dueDate: day(10), remindEmployeeIds: [stranger.id] }, 'remindEmployeeIds'],
      [{ kind: 'Service', dueDate: day(10), remindEmployeeIds: [MISSING_ID] }, 'remindEmployeeIds'],
      [{ kind: 'Service', dueDate: day(10), colour: 'red' }, 'colour'],
    ];
    for (const [body, key] of bad) {
      const res = await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, body);
      expect({ body, status: res.status, keys: Object.keys(res.body.errors ?? {}) }).toEqual({
        body,
        status: 400,
        keys: [key],
      });
    }
  });

  it('the reminder e-mail goes to each recipient once, on its day; a moved due date is reminded again', async () => {
    const email = `${unique('fleet')}@example.com`;
    const recipient = await employee(api, { email });
    const noEmail = await employee(api);
    const due = day(5);
    const created = await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, {
      kind: 'TechnicalInspection',
      dueDate: due,
      note: 'Station Jankomir',
      remindEmployeeIds: [recipient.id, noEmail.id],
      remindDaysBefore: 14,
    });
    expect(created.status).toBe(201);
    expect(created.body.nextReminderOn).toBe(day(5 - 14));

    const [mail] = await eventually(async () => (mailsTo(email).length ? mailsTo(email) : undefined));
    expect(mail!.to).toEqual([email]);
    expect(mail!.subject).toContain('Technical inspection');
    expect(mail!.subject).toContain(plate);
    expect(mail!.subject).toContain(due);
    expect(mail!.raw).toContain('Station Jankomir');
    const after = (await api.get(`/api/v1/vehicles/${vehicleId}/deadlines`)).body.items.find(
      (d: any) => d.id === created.body.id,
    );
    expect(after).toMatchObject({ nextReminderOn: null, lastReminderSentAt: expect.any(String) });

    // Editing the note does not send it again; moving the due date does. A later marker deadline's e-mail
    // proves the job ran in between.
    await api.put(`/api/v1/vehicles/${vehicleId}/deadlines/${created.body.id}`, { ...after, note: 'Other station' });
    const marker = `${unique('marker')}@example.com`;
    const markerEmployee = await employee(api, { email: marker });
    await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, {
      kind: 'Service',
      dueDate: day(1),
      remindEmployeeIds: [markerEmployee.id],
    });
    await eventually(async () => mailsTo(marker).length > 0);
    expect(mailsTo(email)).toHaveLength(1);

    await api.put(`/api/v1/vehicles/${vehicleId}/deadlines/${created.body.id}`, { ...after, dueDate: day(6) });
    await eventually(async () => mailsTo(email).length === 2);
    expect(mailsTo(email)[1]!.subject).toContain(day(6));
  });

  it('a reminder whose day has not come is not sent yet', async () => {
    const email = `${unique('later')}@example.com`;
    const recipient = await employee(api, { email });
    const res = await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, {
      kind: 'Registration',
      dueDate: day(60),
      remindEmployeeIds: [recipient.id],
      remindDaysBefore: 30,
    });
    expect(res.body.nextReminderOn).toBe(day(30));
    const marker = `${unique('marker')}@example.com`;
    const markerEmployee = await employee(api, { email: marker });
    await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, {
      kind: 'Service',
      dueDate: day(0),
      remindEmployeeIds: [markerEmployee.id],
      remindDaysBefore: 0,
    });
    await eventually(async () => mailsTo(marker).length > 0);
    expect(mailsTo(email)).toHaveLength(0);
  });

  it('writes need ManageVehicles (ManageCompanyData is not enough); readers list; another company is 404', async () => {
    const d = (await api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, { kind: 'Service', dueDate: day(40) })).body;
    const reader = await limitedCaller(api, ['ManageCompanyData', 'ReadAllEntries']);
    expect((await reader.api.get(`/api/v1/vehicles/${vehicleId}/deadlines`)).status).toBe(200);
    const body = { kind: 'Service', dueDate: day(41) };
    expect((await reader.api.post(`/api/v1/vehicles/${vehicleId}/deadlines`, body)).status).toBe(403);
    expect((await reader.api.put(`/api/v1/vehicles/${vehicleId}/deadlines/${d.id}`, body)).status).toBe(403);
    expect((await reader.api.delete(`/api/v1/vehicles/${vehicleId}/deadlines/${d.id}`)).status).toBe(403);
    const fleet = await limitedCaller(api, ['FleetManager']);
    expect((await fleet.api.put(`/api/v1/vehicles/${vehicleId}/deadlines/${d.id}`, body)).status).toBe(200);

    const other = (await stack.tenant('CZ')).api;
    expect((await other.get(`/api/v1/vehicles/${vehicleId}/deadlines`)).status).toBe(404);
    expect((await other.post(`/api/v1/vehicles/${vehicleId}/deadlines`, body)).status).toBe(404);
    expect((await other.put(`/api/v1/vehicles/${vehicleId}/deadlines/${d.id}`, body)).status).toBe(404);
    expect((await other.delete(`/api/v1/vehicles/${vehicleId}/deadlines/${d.id}`)).status).toBe(404);
  });
});
