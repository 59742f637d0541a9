/**
 * The newest event envelopes this process stored or read, by event id: an event's bytes never change,
 * so attempt 1 of each of its deliveries (right after the fan-out, in this replica usually) and the
 * attempts of a burst of subscriptions need no store read. Bounded; the oldest entry goes first.
 */
export class EnvelopeCache {
  private readonly entries = new Map<string, { tenantId: string; payload: string }>();

  constructor(private readonly max = 2000) {}

  get(eventId: string, tenantId: string): string | undefined {
    const hit = this.entries.get(eventId);
    if (!hit || hit.tenantId !== tenantId) return undefined;
    // Refresh its place: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.delete(eventId);
    this.entries.set(eventId, hit);
    return hit.payload;
  }

  set(eventId: string, tenantId: string, payload: string): void {
    this.entries.delete(eventId);
    this.entries.set(eventId, { tenantId, payload });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
