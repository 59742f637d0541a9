import { FxClient } from '@travel/reference-fx/src/fx-client';
import type { PerDiemConversion, PerDiemCurrencyConverter } from '../app/per-diem-calculator';

/**
 * reference-fx's internal conversion (`POST /internal/fx/convert`, decimals as text) through its own
 * client, for the per-diem calculator. `EXCHANGE_RATE_UNAVAILABLE` comes back as the same AppError.
 */
export class PerDiemFxClient implements PerDiemCurrencyConverter {
  private readonly client: FxClient;

  constructor(baseUrl: string, contextSecret: string) {
    this.client = new FxClient(baseUrl, contextSecret, 'entries');
  }

  async convert(input: Parameters<PerDiemCurrencyConverter['convert']>[0]): Promise<PerDiemConversion> {
    const r = await this.client.convert(input);
    return { baseAmount: r.baseAmount, source: r.source };
  }
}
