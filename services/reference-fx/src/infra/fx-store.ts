import type { AppliedRate } from '../domain/fx-conversion';
import { PROVIDER_PROFILES, type FxProvider } from '../domain/fx-providers';
import type { Publication } from '../domain/fx-publication';
import type { Connection } from 'mongoose';
import { registerFxModels, type FxModels, type FxPublicationDoc } from './fx-models';

/** Days read by `_id` before the indexed query: a weekend plus the longest holiday run (Christmas). */
const POINT_READ_DAYS = 7;

const daysBefore = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** Publications per insert when a history feed is imported. */
const SAVE_BATCH = 500;

function publicationDoc(p: Publication, origin: string, now: Date): FxPublicationDoc {
  const profile = PROVIDER_PROFILES[p.provider];
  return {
    _id: `${p.provider}:${p.date}`,
    provider: p.provider,
    source: p.provider,
    date: p.date,
    baseCurrency: profile.baseCurrency,
    direction: profile.direction,
    reference: p.reference,
    currencies: p.rates.map((r) => r.currency),
    rates: p.rates.map((r) => ({ currency: r.currency, rate: r.rate, units: r.units })),
    importedAt: now,
    origin,
  };
}

/** The only way to the FX publications (reference data, not tenant data). */
export class FxStore {
  constructor(private readonly models: FxModels) {}

  /** The store on a connection (the models stay inside src/infra: docs/decisions/0082). */
  static open(conn: Connection): FxStore {
    return new FxStore(registerFxModels(conn));
  }

  /**
   * Stores checked publications, each in one single-document replace (all its rates or none). A
   * re-import of a date replaces it (a provider's correction wins). Returns how many were stored.
   */
  async save(publications: Publication[], origin: string, now = new Date()): Promise<number> {
    for (const p of publications) {
      const doc = publicationDoc(p, origin, now);
      await this.models.FxPublication.replaceOne({ _id: doc._id }, doc, { upsert: true });
    }
    return publications.length;
  }

  /**
   * Inserts checked publications not stored yet (a history feed: thousands of dates) in batches of
   * single-document inserts, so a date is stored whole or not at all. A date stored meanwhile (a live
   * import) is kept: its duplicate-key refusal is not an error. Returns how many were inserted. Five times
   * faster than replacing each on FerretDB (decision 0189).
   */
  async insertNew(publications: Publication[], origin: string, now = new Date()): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < publications.length; i += SAVE_BATCH) {
      const docs = publications.slice(i, i + SAVE_BATCH).map((p) => publicationDoc(p, origin, now));
      try {
        await this.models.FxPublication.insertMany(docs, { ordered: false, lean: true });
        inserted += docs.length;
      } catch (err) {
        const writeErrors = (err as { writeErrors?: Array<{ code?: number; err?: { code?: number } }> }).writeErrors;
        const duplicates = writeErrors?.filter((e) => (e.code ?? e.err?.code) === 11000).length ?? 0;
        if (!writeErrors || duplicates !== writeErrors.length) throw err;
        inserted += docs.length - duplicates;
      }
    }
    return inserted;
  }

  /** The dates of every stored publication, by provider (one `_id`-only read of the whole collection). */
  async storedDatesOfEveryProvider(): Promise<Map<FxProvider, Set<string>>> {
    // One pass over the ids (`<provider>:<date>`): a filter by provider is not pushed down on the stand-in
    // store, so a read per provider would scan the collection once each.
    const byProvider = new Map<FxProvider, Set<string>>();
    for (const { _id } of await this.models.FxPublication.find({}, { _id: 1 }).lean()) {
      const colon = _id.indexOf(':');
      const provider = _id.slice(0, colon) as FxProvider;
      if (!byProvider.has(provider)) byProvider.set(provider, new Set());
      byProvider.get(provider)!.add(_id.slice(colon + 1));
    }
    return byProvider;
  }

  /** Whether a history file with exactly this content was imported already. */
  async seedFileImported(name: string, sha256: string): Promise<boolean> {
    return (await this.models.FxSeedFile.exists({ _id: name, sha256 })) !== null;
  }

  /** Records a history file as imported (its content hash), after its publications are stored. */
  async recordSeedFile(name: string, sha256: string, provider: FxProvider, publications: number): Promise<void> {
    await this.models.FxSeedFile.replaceOne(
      { _id: name },
      { _id: name, sha256, provider, publications, importedAt: new Date() },
      { upsert: true },
    );
  }

  /**
   * The rate of `currency` that applies on `date`: from the newest publication on or before it.
   * Publications are read by `_id` for the date and up to a week back (weekends and holiday runs), the
   * one filter FerretDB pushes down (decision 0002); a point read each on MongoDB. Only when that finds
   * nothing (a currency the provider does not list, a date far past the newest publication) does the
   * (provider, currencies, date) index answer.
   */
  async rateOn(provider: FxProvider, currency: string, date: string): Promise<AppliedRate | null> {
    const projection = { date: 1, baseCurrency: 1, direction: 1, rates: 1 };
    let doc: Pick<FxPublicationDoc, 'date' | 'baseCurrency' | 'direction' | 'rates'> | null = null;
    for (let back = 0; back < POINT_READ_DAYS && !doc; back += 1) {
      const found = await this.models.FxPublication.findOne(
        { _id: `${provider}:${daysBefore(date, back)}` },
        projection,
      ).lean();
      if (found && !found.rates.some((r) => r.currency === currency)) break;
      doc = found;
    }
    doc ??= await this.models.FxPublication.findOne(
      { provider, currencies: currency, date: { $lte: date } },
      projection,
    )
      .sort({ date: -1 })
      .lean();
    const quoted = doc?.rates.find((r) => r.currency === currency);
    if (!doc || !quoted) return null;
    return {
      provider,
      currency,
      baseCurrency: doc.baseCurrency,
      direction: doc.direction,
      rate: quoted.rate,
      units: quoted.units,
      date: doc.date,
    };
  }

  /** The newest publication on or before `date` (every currency of it): by `_id` first, as `rateOn`. */
  async publicationOn(provider: FxProvider, date: string): Promise<FxPublicationDoc | null> {
    for (let back = 0; back < POINT_READ_DAYS; back += 1) {
      const found = await this.models.FxPublication.findOne({ _id: `${provider}:${daysBefore(date, back)}` }).lean();
      if (found) return found;
    }
    return this.models.FxPublication.findOne({ provider, date: { $lte: date } })
      .sort({ date: -1 })
      .lean();
  }

  async has(provider: FxProvider, date: string): Promise<boolean> {
    return (await this.models.FxPublication.exists({ _id: `${provider}:${date}` })) !== null;
  }

  /** Date of the provider's newest publication, or null. */
  async newestDate(provider: FxProvider): Promise<string | null> {
    const doc = await this.models.FxPublication.findOne({ provider }, { date: 1 }).sort({ date: -1 }).lean();
    return doc?.date ?? null;
  }
}
