import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { providerOfFileName } from '../domain/fx-feeds';
import type { FxProvider } from '../domain/fx-providers';

export interface RecordedFeed {
  provider: FxProvider;
  name: string;
  text: string;
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
