import { randomUUID } from 'node:crypto';
import { AppError, CONTEXT_HEADER, mintContext, type FieldErrors } from '@travel/platform';
import type { Conversion, CurrencyConverter } from '../app/ports';
import type { RateSource } from '../domain/entry';

/**
 * reference-fx's internal conversion (`POST /internal/fx/convert`, decimals as text). Its 400 answers
 * (`EXCHANGE_RATE_UNAVAILABLE`, `VALIDATION_FAILED`) come back as the same AppError with the field errors
 * as reference-fx keyed them (amount, currency, date, manualRate); the caller re-keys them to its fields.
 */
export class FxConverter implements CurrencyConverter {
  constructor(
    private readonly baseUrl: string,
    private readonly contextSecret: string,
    private readonly timeoutMs = 5000,
  ) {}

  async convert(input: Parameters<CurrencyConverter['convert']>[0]): Promise<Conversion> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/internal/fx/convert`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [CONTEXT_HEADER]: mintContext(
            { kind: 'service', service: 'entries', requestId: randomUUID() },
            this.contextSecret,
          ),
        },
        body: JSON.stringify({
          market: input.market,
          amount: input.amount,
          currency: input.currency,
          date: input.date,
          ...(input.manualRate ? { manualRate: input.manualRate } : {}),
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'reference-fx did not answer; try again.');
    }
    if (res.status === 400) {
      const problem = (await res.json()) as { code?: string; detail?: string; errors?: FieldErrors };
      const code = problem.code === 'EXCHANGE_RATE_UNAVAILABLE' ? 'EXCHANGE_RATE_UNAVAILABLE' : 'VALIDATION_FAILED';
      throw new AppError(code, problem.detail, problem.errors ?? {});
    }
    if (!res.ok) throw new AppError('SERVICE_UNAVAILABLE', `reference-fx answered ${res.status}; try again.`);
    const body = (await res.json()) as { baseAmount: string; source: RateSource };
    return { baseAmount: body.baseAmount, source: body.source };
  }
}
