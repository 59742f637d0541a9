import { Schema, type Connection, type Model } from 'mongoose';
import type { FxProvider, RateDirection } from '../domain/fx-providers';
import type { QuotedRate } from '../domain/fx-publication';

/**
 * One document per provider and publication date, holding every rate of that publication: a feed's
 * date is stored whole in one single-document write, or not at all. FX rates are reference data
 * shared by every tenant (no tenantId): the same ECB rate serves every Slovenian and Slovak company.
 */
export interface FxPublicationDoc {
  /** `${provider}:${date}`: re-importing a publication replaces it. */
  _id: string;
  provider: FxProvider;
  source: FxProvider;
  date: string;
  baseCurrency: string;
  direction: RateDirection;
  reference: string | null;
  /** Codes of `rates`, for the (provider, currency, date) index. */
  currencies: string[];
  rates: QuotedRate[];
  importedAt: Date;
  /** Where it came from: a URL, or the recorded file a local stack was seeded from. */
  origin: string;
}

/** A history feed file already imported (FX_HISTORY_DIR): its name and content hash (decision 0189). */
export interface FxSeedFileDoc {
  /** The file's name (`ecb-eurofxref-hist.xml`, `cnb-rok-2019.txt`, …). */
  _id: string;
  sha256: string;
  provider: FxProvider;
  publications: number;
  importedAt: Date;
}

export interface FxModels {
  FxPublication: Model<FxPublicationDoc>;
  FxSeedFile: Model<FxSeedFileDoc>;
}

export const FX_PUBLICATIONS_COLLECTION = 'fx_publications';
export const FX_SEED_FILES_COLLECTION = 'fx_seed_files';

export function registerFxModels(conn: Connection): FxModels {
  if (conn.models.FxPublication)
    return {
      FxPublication: conn.models.FxPublication as Model<FxPublicationDoc>,
      FxSeedFile: conn.models.FxSeedFile as Model<FxSeedFileDoc>,
    };
  const schema = new Schema<FxPublicationDoc>(
    {
      _id: String,
      provider: { type: String, required: true },
      source: { type: String, required: true },
      date: { type: String, required: true },
      baseCurrency: { type: String, required: true },
      direction: { type: String, required: true },
      reference: { type: String, default: null },
      currencies: { type: [String], required: true },
      rates: [{ _id: false, currency: String, rate: String, units: Number }],
      importedAt: { type: Date, required: true },
      origin: { type: String, required: true },
    },
    { collection: FX_PUBLICATIONS_COLLECTION, versionKey: false },
  );
  // The rate look-up: provider, one currency, the newest date on or before the one asked.
  schema.index({ provider: 1, currencies: 1, date: -1 });
  // The publication look-up (all currencies of a date) and the newest-publication gauge.
  schema.index({ provider: 1, date: -1 });
  const seedFiles = new Schema<FxSeedFileDoc>(
    {
      _id: String,
      sha256: { type: String, required: true },
      provider: { type: String, required: true },
      publications: { type: Number, required: true },
      importedAt: { type: Date, required: true },
    },
    { collection: FX_SEED_FILES_COLLECTION, versionKey: false },
  );
  return {
    FxPublication: conn.model<FxPublicationDoc>('FxPublication', schema),
    FxSeedFile: conn.model<FxSeedFileDoc>('FxSeedFile', seedFiles),
  };
}
