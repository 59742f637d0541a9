import type { KeyObject } from 'node:crypto';
import { decimal } from '@travel/money';
import { FxClient } from '@travel/reference-fx/src/fx-client';
import type { Conversion, CurrencyConverter } from '../app/ports';
import { minorDigitsOf } from '../domain/amounts';

/**
 * reference-fx's internal conversion through its own client (`POST /internal/fx/convert`, decimals as
 * text). Its 400 answers (`EXCHANGE_RATE_UNAVAILABLE`, `VALIDATION_FAILED`) come back as the same AppError,
 * field errors keyed amount, currency, date, manualRate; the app re-keys them to its own fields.
 */
export class FxConverter implements CurrencyConverter {
  private readonly client: FxClient;

  constructor(baseUrl: string, signingKey: KeyObject) {
    this.client = new FxClient(baseUrl, signingKey, 'entries');
  }

  async convert(input: Parameters<CurrencyConverter['convert']>[0]): Promise<Conversion> {
    const r = await this.client.convert({
      market: input.market,
      amount: decimal(input.amount),
      currency: input.currency,
      date: input.date,
      manualRate: input.manualRate === null ? null : decimal(input.manualRate),
    });
    return { baseAmount: r.baseAmount.toFixed(minorDigitsOf(r.baseCurrency)), source: r.source };
  }
}
