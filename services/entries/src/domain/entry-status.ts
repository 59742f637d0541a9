// The entry's status and phase values and the small types its children share (entry.ts re-exports
// them): their own module, so workflow.ts, expense.ts and per-diem-row.ts need not import entry.ts,
// which imports them (no import circles: docs/decisions/0169).
/** Entry status integers (API-SURFACE.md, Values). */
export const EntryStatus = {
  Draft: 0,
  Submitted: 1,
  ChangesRequested: 2,
  Approved: 3,
  Rejected: 4,
  Cancelled: 5,
} as const;
export type EntryStatusValue = (typeof EntryStatus)[keyof typeof EntryStatus];
export type EntryPhase = 0 | 1 | null;
export type TravelType = 'Domestic' | 'Foreign';
export type RateSource = 'HNB' | 'ECB' | 'CNB' | 'NBP' | 'MANUAL' | null;
