import { readEntryBundle, TILE_WIDTH, tilePath, tileWidthIn } from '../domain/logTiles.js';
import { AuditFailure, fetchOk } from './logClient.js';

/** An entry of the log as served: its index and exact text. */
export interface ServedEntry {
  index: number;
  text: string;
}

/** The entries of one bundle from `from` on, or null when the server serves no tiles (404). */
async function bundleEntries(base: string, bundle: number, size: number, from: number): Promise<ServedEntry[] | null> {
  const width = tileWidthIn(size, 'entries', bundle);
  const path = `/api/log/tile/${tilePath({ level: 'entries', index: bundle, width })}`;
  const response = await fetch(`${base}${path}`).catch((error: unknown) => {
    throw new AuditFailure(`cannot reach ${base}${path}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new AuditFailure(`GET ${path} answered ${response.status}`);
  const entries = readEntryBundle(Buffer.from(await response.arrayBuffer()));
  if (entries?.length !== width) throw new AuditFailure(`inclusion: ${path} is not a bundle of ${width} entries`);
  const first = bundle * TILE_WIDTH;
  return entries.flatMap((entry, i) => (first + i >= from ? [{ index: first + i, text: entry.toString('utf8') }] : []));
}

/**
 * The entries [from, size) of the tree of `size`, in order, a batch at a time: by C2SP tlog-tiles
 * entry bundles (256 a request) when the server serves them, else one request an entry. What
 * they are is checked by the caller, which hashes them into the signed root.
 */
export async function* servedEntries(base: string, from: number, size: number): AsyncGenerator<ServedEntry[]> {
  let tiles = true;
  for (let at = from; at < size; ) {
    const bundle = Math.floor(at / TILE_WIDTH);
    const batch = tiles ? await bundleEntries(base, bundle, size, at) : null;
    if (batch === null) {
      tiles = false;
      const end = Math.min(size, (bundle + 1) * TILE_WIDTH);
      const single: ServedEntry[] = [];
      for (let index = at; index < end; index += 1) single.push({ index, text: await (await fetchOk(base, `/api/log/entries/${index}`)).text() });
      yield single;
      at = end;
    } else {
      yield batch;
      at = (bundle + 1) * TILE_WIDTH;
    }
  }
}
