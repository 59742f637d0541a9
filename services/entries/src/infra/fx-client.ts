import { ReferenceFxClient } from '@travel/contracts';
import { decimal } from '@travel/money';
import type { Conversion, CurrencyConverter } from '../app/ports';
import { minorDigitsOf } from '../domain/amounts';

/**
 * entries' one adapter to reference-fx's conversion (its published client, `POST /internal/fx/convert`,
 * decimals as text), for expenses, advances, per-diem rows and the calculator alike. Its 400 answers
 * (`EXCHANGE_RATE_UNAVAILABLE`, `VALIDATION_FAILED`) come back as the same AppError, field errors keyed
 * amount, currency, date, manualRate; the app re-keys them to its own fields.
 */
export class FxConverter implements CurrencyConverter {
  constructor(private readonly client: ReferenceFxClient) {}

  async convert(input: Parameters<CurrencyConverter['convert']>[0]): Promise<Conversion> {
    const r = await this.client.convert({
      market: input.market,
      // Sent as decimal text in its shortest form, as before the one adapter.
      amount: decimal(input.amount).toString(),
      currency: input.currency,
      date: input.date,
      ...(input.manualRate === null ? {} : { manualRate: decimal(input.manualRate).toString() }),
    });
    return { baseAmount: decimal(r.baseAmount).toFixed(minorDigitsOf(r.baseCurrency)), source: r.source };
  }
}
