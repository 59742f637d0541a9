// Entries ready for payout, made through the typed client (packages/client) as a partner would.
import type { components, TravelClient } from '@travel/client';
import { eventually } from '@travel/testkit';

/** Submitted in a company without an approval workflow: approved at once (SPEC "What the service does" 5). */
export async function submit(client: TravelClient, id: string): Promise<void> {
  const { data } = await client.api.POST('/api/v1/travel-entries/{id}/submit', { params: { path: { id } }, body: {} });
  if (data?.status !== 3) throw new Error(`submitting ${id}: status ${data?.status}`);
}

/** An entry with one expense of `amount` (base currency) and an advance, submitted and so approved. */
export async function approvedEntry(
  client: TravelClient,
  amount: number,
  advance = 0,
  base: components['schemas']['CurrencyCode'] = 'CZK',
): Promise<string> {
  const { data } = await client.api.POST('/api/v1/travel-entries', {
    body: {
      departureDate: '2026-11-16',
      returnDate: '2026-11-18',
      advancePayment: advance,
      currencyCode: base,
      expenses: [{ kind: 'Other', date: '2026-11-17', amount, currencyCode: base, description: 'Taxi' }],
    },
  });
  await submit(client, data!.id);
  return data!.id;
}

/** The ids of the ready-for-payout list, every page, in its order. */
export const readyIds = async (client: TravelClient): Promise<string[]> =>
  (await client.listAll('/api/v1/payouts/ready')).map((r) => r.id);

/** Waits until the projection lists exactly these (order as the list has them). */
export const untilReady = (client: TravelClient, ids: string[]) =>
  eventually(async () => {
    const listed = await readyIds(client);
    return ids.every((id) => listed.includes(id)) && listed.length === ids.length ? listed : false;
  }, 15_000);
