import type { FieldErrors } from '@travel/platform';

/** How far back `recover` reaches: the retention of the stored envelopes. */
export const RECOVERY_DAYS = 30;

/** `since` of a recover request: a timestamp at most 30 days before `now`. */
export function checkRecoverySince(since: string, now: Date): { errors: FieldErrors; since?: Date } {
  const at = new Date(since);
  if (Number.isNaN(at.getTime())) return { errors: { since: ['must be an ISO 8601 timestamp'] } };
  if (at.getTime() < now.getTime() - RECOVERY_DAYS * 86_400_000) {
    return { errors: { since: [`must be at most ${RECOVERY_DAYS} days ago`] } };
  }
  return { errors: {}, since: at };
}

export interface PriorDelivery {
  eventId: string;
  subscriptionId: string;
  status: string;
}

/**
 * Which of `eventIds` a recovering subscription gets: not those it already has a delivery of (sent
 * normally, or by an earlier recover), nor those an earlier subscription to the same URL delivered
 * successfully. `prior` holds the deliveries of both kinds for these events.
 */
export function eventsToRecover(eventIds: string[], prior: PriorDelivery[], subscriptionId: string): string[] {
  const done = new Set(
    prior.filter((d) => d.subscriptionId === subscriptionId || d.status === 'Succeeded').map((d) => d.eventId),
  );
  return eventIds.filter((id) => !done.has(id));
}
