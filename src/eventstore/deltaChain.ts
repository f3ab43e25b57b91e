import type { Revision } from './eventStore.js';
import { decodeBytes, type StoredData, UndecodableVersionError } from './storedVersions.js';

/** A version on the way from a keyframe to the version asked for: its revision and how it is stored. */
export interface ChainLink {
  revision: Revision;
  stored: StoredData;
}

/**
 * Where a walk back along a chain goes after `link`: the revision of its base when it is a
 * delta, null when it is a keyframe (the chain starts there). Both event stores walk their
 * chains with it (./sqliteEventTable.ts, ./esdbVersions.ts), each reading links its own way.
 */
export function baseRevisionOf(streamId: string, link: ChainLink): Revision | null {
  if (link.stored.encoding !== 'delta') return null;
  const base = link.stored.baseRevision;
  if (base === null || base >= link.revision) throw new UndecodableVersionError(streamId, link.revision, 'a delta without an earlier base');
  return base;
}

/**
 * The version at the end of a chain: `links` as walked (newest first), ending at a keyframe or at
 * a delta whose base is `base`, a version kept whole. Every result is checked against the size
 * its delta names, and only the last against its checksum: the versions on the way are not given
 * out, and what is given out is checked (docs/decisions.md, "Old revisions: a chain checks its
 * last result"). Fossil's checksum of each intermediate 2 MB version was two thirds of a read.
 */
export function rebuildChain(streamId: string, links: readonly ChainLink[], base: Buffer | undefined): Buffer {
  let bytes = base;
  for (let i = links.length - 1; i >= 0; i -= 1) {
    const link = links[i]!;
    const below = bytes;
    bytes = decodeBytes(
      streamId,
      link.revision,
      link.stored,
      () => {
        if (below === undefined) throw new UndecodableVersionError(streamId, link.revision, 'a delta whose base is not on its chain');
        return below;
      },
      i === 0,
    );
  }
  if (bytes === undefined) throw new UndecodableVersionError(streamId, links[0]?.revision ?? -1, 'an empty chain');
  return bytes;
}
