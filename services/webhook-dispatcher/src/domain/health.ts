// A subscription's health (issue 40 §2, docs/decisions/0229): what its GET shows, and the notices its
// company's account owners get by e-mail when it starts failing and when it is disabled.
import { DISABLE_AFTER_EXHAUSTED } from './outcome';

/** Exhausted deliveries in a row that make a subscription `failing` and send the first notice. */
export const FAILING_AFTER_EXHAUSTED = 3;

export type HealthStatus = 'healthy' | 'failing' | 'disabled';
export type NoticeKind = 'failing' | 'disabled';

/** A notice recorded before it is sent (the claim across replicas); cleared once sent. */
export interface PendingNotice {
  kind: NoticeKind;
  /** Not tried before then: a replica sending it holds it this long, a failed send backs off. */
  notBefore: Date;
  /** Sends tried so far (the back-off grows with them). */
  attempts: number;
}

/** What health reads of a stored subscription. */
export interface HealthFields {
  isActive: boolean;
  disabledAt: Date | null;
  consecutiveExhausted: number;
  failingSince?: Date | null;
  lastNoticeAt?: Date | null;
}

/** The read-only `health` of a subscription's body. */
export function healthOf(s: HealthFields) {
  const status: HealthStatus = !s.isActive ? 'disabled' : s.failingSince ? 'failing' : 'healthy';
  const since = status === 'disabled' ? s.disabledAt : status === 'failing' ? s.failingSince : null;
  return {
    status,
    consecutiveExhausted: s.consecutiveExhausted ?? 0,
    since: since ? since.toISOString() : null,
    lastNoticeAt: s.lastNoticeAt ? s.lastNoticeAt.toISOString() : null,
  };
}

/** A failed send is tried again after 1, 2, 4 … minutes, at most an hour apart: never dropped. */
export function noticeBackoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, attempts - 1));
}

/** The e-mail of a notice: the subscription's id and URL and what follows; no personal data. */
export function noticeMessage(
  kind: NoticeKind,
  s: { _id: string; url: string; consecutiveExhausted: number },
): { subject: string; text: string } {
  if (kind === 'failing')
    return {
      subject: `Webhook failing: ${s.url}`,
      text: [
        `The webhook subscription ${s._id} (${s.url}) has had ${s.consecutiveExhausted} deliveries in a row exhaust all their attempts.`,
        `After ${DISABLE_AFTER_EXHAUSTED} in a row it is disabled. A successful delivery makes it healthy again.`,
        'Its delivery log (GET /api/v1/webhooks/{id}/deliveries) shows the receiver’s answers.',
      ].join('\n'),
    };
  return {
    subject: `Webhook disabled: ${s.url}`,
    text: [
      `The webhook subscription ${s._id} (${s.url}) was disabled after ${DISABLE_AFTER_EXHAUSTED} deliveries in a row exhausted all their attempts; it gets no new deliveries.`,
      'Delete it, register the endpoint again and call recover to receive what it missed.',
    ].join('\n'),
  };
}
