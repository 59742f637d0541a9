import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { providerOfFileName } from '../domain/fx-feeds';
import type { FxProvider } from '../domain/fx-providers';

export interface RecordedFeed {
  provider: FxProvider;
  name: string;
  text: string;
  /** Where it came from, stored with each publication; `file:<name>` when not given. */
  origin?: string;
}

/** The recorded feeds in a directory (`hnb-…`, `ecb-…`, `cnb-…`, `nbp-…`), by name; other files are ignored. */
export async function readRecordedFeeds(dir: string): Promise<RecordedFeed[]> {
  const names = (await readdir(dir)).sort();
  const feeds: RecordedFeed[] = [];
  for (const name of names) {
    const provider = providerOfFileName(name);
    if (provider) feeds.push({ provider, name, text: await readFile(join(dir, name), 'utf8') });
  }
  return feeds;
}

interface ProvenanceSource {
  package?: unknown;
  version?: unknown;
  file?: unknown;
  written?: unknown;
}

/**
 * The history feeds of a directory written by scripts/fx-history.py, each with its origin from the
 * directory's PROVENANCE.json: `file:cnb-rok-2019.txt (PyPI cnb-rates 0.2.0, data/all.csv.xz)`.
 * A file PROVENANCE.json does not name keeps `file:<name>`.
 */
export async function readHistoryFeeds(dir: string): Promise<RecordedFeed[]> {
  let sources: ProvenanceSource[] = [];
  try {
    const provenance = JSON.parse(await readFile(join(dir, 'PROVENANCE.json'), 'utf8')) as { sources?: unknown };
    if (Array.isArray(provenance.sources)) sources = provenance.sources as ProvenanceSource[];
  } catch {
    sources = [];
  }
  const originOf = new Map<string, string>();
  for (const s of sources)
    if (Array.isArray(s.written))
      for (const name of s.written)
        originOf.set(
          String(name),
          `file:${String(name)} (PyPI ${String(s.package)} ${String(s.version)}, ${String(s.file)})`,
        );
  return (await readRecordedFeeds(dir)).map((feed) => ({ ...feed, origin: originOf.get(feed.name) }));
}
