/**
 * The request cannot be computed. `errors` is keyed by the request field (`stops[1].time`,
 * `meals[0]`), ready for the platform's 400 `VALIDATION_FAILED` body.
 */
export class PerDiemInputError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(`invalid per-diem request: ${Object.keys(errors).join(', ')}`);
    this.name = 'PerDiemInputError';
  }
}

export class Problems {
  private readonly errors: Record<string, string[]> = {};
  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw new PerDiemInputError(this.errors);
  }
}
