import { createHash } from 'node:crypto';
import type { Logger, Metrics, PeriodicJob } from '@travel/platform';
import { FEED_PARSERS } from '../domain/fx-feeds';
import { FX_PROVIDERS, type FxProvider } from '../domain/fx-providers';
import { FeedError, type Publication } from '../domain/fx-publication';
import { fetchFeed } from '../infra/fx-feed-fetcher';
import type { RecordedFeed } from '../infra/fx-seed-files';
import type { FxStore } from '../infra/fx-store';

/** Settings of the FX importer (docs/configuration.md, "reference-fx"; read by config.ts). */
export interface FxConfig {
  /** Fetch the providers' feeds on a schedule. Off unless set: tests and offline stacks never reach out. */
  importEnabled: boolean;
  importIntervalMinutes: number;
  importTimeoutMs: number;
  /** Further attempts after a failed fetch, each after `importRetryDelayMs` × attempt. */
  importRetries: number;
  importRetryDelayMs: number;
  urls: Record<FxProvider, string>;
  /** A directory of recorded feeds loaded at start (publications already stored are kept). */
  seedDir?: string;
  /**
   * A directory of provider history feeds (scripts/fx-history.sh) imported at start, each file once: a file
   * whose content hash is recorded is not read again (decision 0189). Publications already stored are kept.
   */
  historyDir?: string;
}

export type ImportOutcome =
  | { ok: true; provider: FxProvider; stored: number; dates: string[]; unchanged?: true }
  | { ok: false; provider: FxProvider; reason: string };

/**
 * Imports provider feeds: parse and check the whole feed first, then store its publications. A feed
 * that fails any check is refused whole (logged, counted in `fx_feed_rejected_total`), and nothing
 * of it is stored. A fetch that fails after its retries is logged and counted too; the previous rates
 * stay in force.
 */
export class FxImporter {
  private readonly rejected;
  private readonly stored;
  private readonly fetchFailures;

  constructor(
    private readonly store: FxStore,
    private readonly logger: Logger,
    metrics: Metrics,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.rejected = metrics.counter('fx_feed_rejected_total', 'FX feeds refused whole (malformed or partial)', [
      'provider',
    ]);
    this.stored = metrics.counter('fx_publications_stored_total', 'FX publications (one provider, one date) stored', [
      'provider',
    ]);
    this.fetchFailures = metrics.counter('fx_feed_fetch_failures_total', 'FX feed fetches that failed after retries', [
      'provider',
    ]);
    metrics.gauge(
      'fx_newest_publication_age_days',
      'Days between today (UTC) and the newest stored publication of each provider',
      ['provider'],
      async function collect() {
        for (const provider of FX_PROVIDERS) {
          const newest = await store.newestDate(provider).catch(() => null);
          if (newest) this.set({ provider }, Math.floor((Date.now() - Date.parse(`${newest}T00:00:00Z`)) / 86_400_000));
        }
      },
    );
  }

  /** The feed's publications, or the refusal (counted and logged) when the provider's parser refuses it whole. */
  private parse(provider: FxProvider, text: string, origin: string, refused: string): Publication[] | ImportOutcome {
    try {
      return FEED_PARSERS[provider](text);
    } catch (err) {
      if (!(err instanceof FeedError)) throw err;
      this.rejected.inc({ provider });
      this.logger.warn({ provider, origin, reason: err.message }, refused);
      return { ok: false, provider, reason: err.message };
    }
  }

  /** Parses and stores one feed's text (a fetched feed: its publications replace the stored ones). */
  async importText(provider: FxProvider, text: string, origin: string): Promise<ImportOutcome> {
    const parsed = this.parse(provider, text, origin, 'FX feed refused whole');
    if (!Array.isArray(parsed)) return parsed;
    const wanted = parsed;
    await this.store.save(wanted, origin);
    this.stored.inc({ provider }, wanted.length);
    const dates = wanted.map((p) => p.date);
    if (wanted.length)
      this.logger.info({ provider, origin, dates: dates.length, newest: dates.at(-1) }, 'FX rates stored');
    return { ok: true, provider, stored: wanted.length, dates };
  }

  /**
   * Seeding, recorded or history feeds: stores the publications whose dates are not in `known` (the
   * provider's stored dates, read once), in batches; a date stored meanwhile is kept. `known` grows.
   */
  private async storeNew(
    provider: FxProvider,
    publications: Publication[],
    origin: string,
    known: Set<string>,
  ): Promise<Publication[]> {
    const wanted = publications.filter((p) => !known.has(p.date));
    await this.store.insertNew(wanted, origin);
    for (const p of wanted) known.add(p.date);
    this.stored.inc({ provider }, wanted.length);
    return wanted;
  }

  /**
   * Loads recorded feeds (a fresh local stack): only publications not stored yet, each file once (as the
   * history files, under a name of its own kind).
   */
  async seed(feeds: RecordedFeed[]): Promise<ImportOutcome[]> {
    return this.seedFiles(
      feeds.map((feed) => ({ ...feed, name: `recorded:${feed.name}`, origin: feed.origin ?? `file:${feed.name}` })),
      'FX recorded feed stored',
    );
  }

  /**
   * Imports history feeds (thousands of dates each) once: a file whose name and content hash were recorded
   * is skipped unread by the parser; otherwise it is parsed whole by the provider's parser, its dates not
   * stored yet are written in batches, and the file is recorded. A refused file is logged and counted like
   * any feed, and not recorded (it is tried again at the next start).
   */
  async seedHistory(feeds: RecordedFeed[]): Promise<ImportOutcome[]> {
    return this.seedFiles(feeds, 'FX history stored');
  }

  /**
   * Seeding, history or recorded: a file recorded with this content is skipped unread, so a restart reads
   * nothing but the records (one point read a file). The stored dates are read once for every provider,
   * and only if some file is new: on the stand-in store a read by provider scans the whole collection, and
   * one such read per recorded file made a restart take minutes (decision 0189, amended).
   */
  private async seedFiles(feeds: RecordedFeed[], storedMessage: string): Promise<ImportOutcome[]> {
    const outcomes: ImportOutcome[] = [];
    let stored: Map<FxProvider, Set<string>> | undefined;
    for (const feed of feeds) {
      const { provider, name, text } = feed;
      const origin = feed.origin ?? `file:${name}`;
      const sha256 = createHash('sha256').update(text).digest('hex');
      if (await this.store.seedFileImported(name, sha256)) {
        outcomes.push({ ok: true, provider, stored: 0, dates: [], unchanged: true });
        continue;
      }
      const publications = this.parse(provider, text, origin, 'FX seed feed refused whole');
      if (!Array.isArray(publications)) {
        outcomes.push(publications);
        continue;
      }
      stored ??= await this.store.storedDatesOfEveryProvider();
      if (!stored.has(provider)) stored.set(provider, new Set());
      const wanted = await this.storeNew(provider, publications, origin, stored.get(provider)!);
      await this.store.recordSeedFile(name, sha256, provider, publications.length);
      const dates = wanted.map((p) => p.date);
      this.logger.info(
        { provider, origin, dates: dates.length, first: publications[0]?.date, last: publications.at(-1)?.date },
        storedMessage,
      );
      outcomes.push({ ok: true, provider, stored: wanted.length, dates });
    }
    return outcomes;
  }

  /** Fetches and imports one provider's feed now. */
  async fetchAndImport(provider: FxProvider, config: FxConfig): Promise<ImportOutcome> {
    const url = config.urls[provider];
    let text: string;
    try {
      text = await fetchFeed(
        url,
        { timeoutMs: config.importTimeoutMs, retries: config.importRetries, retryDelayMs: config.importRetryDelayMs },
        this.fetchImpl,
      );
    } catch (err) {
      this.fetchFailures.inc({ provider });
      const reason = (err as Error).message;
      this.logger.warn({ provider, url, reason }, 'FX feed fetch failed; the stored rates stay in force');
      return { ok: false, provider, reason };
    }
    return this.importText(provider, text, url);
  }

  /** Every provider's feed once per `importIntervalMinutes` across the replicas (`startPeriodicJob`, 0218). */
  importJob(config: FxConfig): PeriodicJob {
    return {
      name: 'FX import',
      everyMs: config.importIntervalMinutes * 60_000,
      run: async () => {
        for (const provider of FX_PROVIDERS) await this.fetchAndImport(provider, config);
      },
    };
  }
}
