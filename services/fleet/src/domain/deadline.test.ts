import { daysBefore, deadlineFields, nextReminderOn, reminderMessage, type DeadlineFields } from './deadline';

const fields = (extra: Partial<DeadlineFields> = {}): DeadlineFields => ({
  kind: 'Insurance',
  title: null,
  dueDate: '2027-03-10',
  note: null,
  remindEmployeeIds: ['e1'],
  remindDaysBefore: 14,
  ...extra,
});

describe('deadlines', () => {
  it('days before a date, across months and leap days', () => {
    expect(daysBefore('2027-03-10', 14)).toBe('2027-02-24');
    expect(daysBefore('2028-03-01', 1)).toBe('2028-02-29');
    expect(daysBefore('2027-01-05', 0)).toBe('2027-01-05');
  });

  it('a reminder is scheduled only with recipients, and once per due date and lead time', () => {
    expect(nextReminderOn(fields(), null)).toBe('2027-02-24');
    expect(nextReminderOn(fields({ remindEmployeeIds: [] }), null)).toBeNull();
    expect(nextReminderOn(fields(), '2027-03-10/14')).toBeNull();
    expect(nextReminderOn(fields({ dueDate: '2027-04-10' }), '2027-03-10/14')).toBe('2027-03-27');
    expect(nextReminderOn(fields({ remindDaysBefore: 7 }), '2027-03-10/14')).toBe('2027-03-03');
  });

  it('Custom needs a title; recipients are de-duplicated; 14 days by default', () => {
    expect(Object.keys(deadlineFields({ kind: 'Custom', dueDate: '2027-01-01' }).errors)).toEqual(['title']);
    const { fields: f } = deadlineFields({ kind: 'Service', dueDate: '2027-01-01', remindEmployeeIds: ['A', 'a'] });
    expect(f).toMatchObject({ remindEmployeeIds: ['a'], remindDaysBefore: 14 });
  });

  it('the e-mail names what, which vehicle and when (overdue said so)', () => {
    const m = reminderMessage(
      { kind: 'TechnicalInspection', title: null, dueDate: '2027-03-10', note: 'Bring papers' },
      { name: 'Van', licensePlate: 'ZG-1' },
      '2027-03-01',
    );
    expect(m.subject).toBe('Technical inspection for Van (ZG-1) is due on 2027-03-10');
    expect(m.text).toContain('Bring papers');
    expect(
      reminderMessage(
        { kind: 'Custom', title: 'Tyres', dueDate: '2027-03-10', note: null },
        { name: 'Van', licensePlate: null },
        '2027-03-11',
      ).subject,
    ).toBe('Deadline: Tyres for Van was due on 2027-03-10');
  });
});
