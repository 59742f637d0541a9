import type { ConvertRequestBody, ConvertResponseBody, ReferenceFxClient } from '@travel/contracts';
import { FxConverter } from './fx-client';

// entries' one adapter to reference-fx's published client (issue 26, decision 0172): what it sends and
// how it reads the answer, for every use case (expenses, advances, per-diem rows, the calculator).
function converterAnswering(answer: Partial<ConvertResponseBody>) {
  const sent: ConvertRequestBody[] = [];
  const client = {
    convert: async (body: ConvertRequestBody) => {
      sent.push(body);
      return { baseCurrency: 'EUR', source: 'ECB', ...answer } as ConvertResponseBody;
    },
  } as unknown as ReferenceFxClient;
  return { fx: new FxConverter(client), sent };
}

describe('FxConverter', () => {
  it('sends decimal text, a manual rate only when there is one', async () => {
    const { fx, sent } = converterAnswering({ baseAmount: '12.5' });
    await fx.convert({ market: 'SI', amount: '10.50', currency: 'USD', date: '2026-11-20', manualRate: null });
    await fx.convert({ market: 'SI', amount: '10', currency: 'USD', date: '2026-11-20', manualRate: '1.0800' });
    expect(sent).toEqual([
      { market: 'SI', amount: '10.5', currency: 'USD', date: '2026-11-20' },
      { market: 'SI', amount: '10', currency: 'USD', date: '2026-11-20', manualRate: '1.08' },
    ]);
  });

  it("answers the base amount in the base currency's minor digits, with the rate's source", async () => {
    await expect(
      converterAnswering({ baseAmount: '12.5' }).fx.convert({
        market: 'SI',
        amount: '10',
        currency: 'USD',
        date: '2026-11-20',
        manualRate: null,
      }),
    ).resolves.toEqual({ baseAmount: '12.50', source: 'ECB' });
    await expect(
      converterAnswering({ baseAmount: '1000', baseCurrency: 'JPY', source: null }).fx.convert({
        market: 'CZ',
        amount: '1000',
        currency: 'JPY',
        date: '2026-11-20',
        manualRate: null,
      }),
    ).resolves.toEqual({ baseAmount: '1000', source: null });
  });
});
