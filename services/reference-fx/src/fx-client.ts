// The internal conversion API of reference-fx, and the small client other services use for it
// (entries: expenses, advances, per-diems). Service-to-service only: `POST /internal/fx/convert`
// behind a service context signed with the caller's own key and addressed to reference-fx (docs/decisions/
// 0100), never through the gateway.
// Decimals travel as decimal strings here, so nothing passes through binary floating point.
import { randomUUID, type KeyObject } from 'node:crypto';
import { Decimal, decimal } from '@travel/money';
import { AppError, CONTEXT_HEADER, mintContext, type FieldErrors, type Market } from '@travel/platform';

export const CONVERT_PATH = '/internal/fx/convert';

export interface ConvertRequestBody {
  /** The tenant's market: decides the provider and the base currency. */
  market: Market;
  /** Decimal text (or a JSON number) with at most the currency's minor digits. */
  amount: string | number;
  currency: string;
  /** The referential date, yyyy-MM-dd. */
  date: string;
  /** Honoured only when the provider has no rate for the date; in the provider's direction, per 1 unit. */
  manualRate?: string | number | null;
}

export interface ConvertResponseBody {
  amount: string;
  currency: string;
  date: string;
  /** Rounded half-up to the base currency's minor digits. */
  baseAmount: string;
  baseCurrency: string;
  /** The rate used, as published (per `units`); null for the base currency itself. */
  rate: string | null;
  units: number | null;
  direction: 'ForeignPerBase' | 'BasePerForeign' | null;
  /** The publication date of the rate (the requested date for a manual rate); null for the base currency. */
  rateDate: string | null;
  /** `HNB`, `ECB`, `CNB`, `NBP`, `MANUAL`, or null for the base currency. */
  source: 'HNB' | 'ECB' | 'CNB' | 'NBP' | 'MANUAL' | null;
}

export interface FxConversion {
  amount: Decimal;
  currency: string;
  baseAmount: Decimal;
  baseCurrency: string;
  rate: Decimal | null;
  units: number | null;
  direction: ConvertResponseBody['direction'];
  rateDate: string | null;
  source: ConvertResponseBody['source'];
}

/**
 * Calls reference-fx. A 400 answer (`EXCHANGE_RATE_UNAVAILABLE`, `VALIDATION_FAILED`) is rethrown as the
 * same AppError, so the calling service answers its own client with the same code and field errors;
 * anything else is a SERVICE_UNAVAILABLE.
 */
export class FxClient {
  constructor(
    private readonly baseUrl: string,
    /** The calling service's own private key (INTERNAL_SIGNING_KEY). */
    private readonly signingKey: KeyObject,
    private readonly service: string,
    private readonly timeoutMs = 5000,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async convert(input: {
    market: Market;
    amount: Decimal;
    currency: string;
    date: string;
    manualRate?: Decimal | null;
    requestId?: string;
  }): Promise<FxConversion> {
    const body: ConvertRequestBody = {
      market: input.market,
      amount: input.amount.toString(),
      currency: input.currency,
      date: input.date,
      ...(input.manualRate ? { manualRate: input.manualRate.toString() } : {}),
    };
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.baseUrl}${CONVERT_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [CONTEXT_HEADER]: mintContext(
            {
              kind: 'service',
              service: this.service,
              audience: 'reference-fx',
              requestId: input.requestId ?? randomUUID(),
            },
            this.signingKey,
          ),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new AppError('SERVICE_UNAVAILABLE', `reference-fx is unreachable: ${(err as Error).message}`);
    }
    if (res.status === 400) {
      const problem = (await res.json()) as { code?: string; detail?: string; errors?: FieldErrors };
      const code = problem.code === 'EXCHANGE_RATE_UNAVAILABLE' ? 'EXCHANGE_RATE_UNAVAILABLE' : 'VALIDATION_FAILED';
      throw new AppError(code, problem.detail, problem.errors);
    }
    if (!res.ok) throw new AppError('SERVICE_UNAVAILABLE', `reference-fx answered ${res.status}`);
    const r = (await res.json()) as ConvertResponseBody;
    return {
      amount: decimal(r.amount),
      currency: r.currency,
      baseAmount: decimal(r.baseAmount),
      baseCurrency: r.baseCurrency,
      rate: r.rate === null ? null : decimal(r.rate),
      units: r.units,
      direction: r.direction,
      rateDate: r.rateDate,
      source: r.source,
    };
  }
}
