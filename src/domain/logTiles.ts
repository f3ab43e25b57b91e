/**
 * C2SP tlog-tiles addressing and entry bundles, pure. A tile holds up to 256 hashes of one level
 * of the tree (tile level L holds the nodes of height 8·L); an entry bundle holds up to 256
 * entries. A full tile is 256 wide and never changes; a partial one (`.p/<W>`) is the first W.
 */

export const TILE_WIDTH = 256;
export const TILE_HEIGHT = 8;

/** A hash tile (`level` 0, 1, …) or an entry bundle (`level` 'entries'), `width` 1–256. */
export interface TileAddress {
  level: number | 'entries';
  index: number;
  width: number;
}

/** The tile index as the spec writes it: three-digit groups, every one but the last prefixed with `x`. */
export function tileIndexPath(index: number): string {
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

/** The path of a tile under the tiles' prefix: `<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]`. */
export const tilePath = ({ level, index, width }: TileAddress) => `${level}/${tileIndexPath(index)}${width < TILE_WIDTH ? `.p/${width}` : ''}`;

/** The highest hash tile level served: its nodes cover 2^48 leaves, past any tree of safe integers' hashing. */
const MAX_LEVEL = 6;

/** Reads a tile's path; null for any path not in the spec's one canonical form. */
export function parseTilePath(path: string): TileAddress | null {
  const match = /^(entries|\d{1,2})\/((?:x\d{3}\/)*\d{3})(?:\.p\/(\d{1,3}))?$/.exec(path);
  if (match === null) return null;
  const [, levelText, indexText, widthText] = match;
  const level = levelText === 'entries' ? 'entries' : Number(levelText);
  const index = Number(indexText!.replaceAll('x', '').replaceAll('/', ''));
  const width = widthText === undefined ? TILE_WIDTH : Number(widthText);
  if (typeof level === 'number' && level > MAX_LEVEL) return null;
  if (!Number.isSafeInteger(index) || width < 1 || width > TILE_WIDTH) return null;
  const address: TileAddress = { level, index, width };
  return tilePath(address) === path ? address : null;
}

/** How many leaves one node of a hash tile of `level` covers. */
export const leavesPerNode = (level: number) => 2 ** (TILE_HEIGHT * level);

/** The widest the tile at `index` of `level` is in a tree of `size` leaves (0: none of it yet). */
export function tileWidthIn(size: number, level: number | 'entries', index: number): number {
  const nodes = Math.floor(size / (level === 'entries' ? 1 : leavesPerNode(level)));
  return Math.max(0, Math.min(TILE_WIDTH, nodes - index * TILE_WIDTH));
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function entryBundle(entries: readonly string[]): Buffer {
  return Buffer.concat(
    entries.flatMap((entry) => {
      const bytes = Buffer.from(entry, 'utf8');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(bytes.length);
      return [length, bytes];
    }),
  );
}

/** The entries of a bundle; null when its bytes are not a sequence of length-prefixed entries. */
export function readEntryBundle(bundle: Buffer): Buffer[] | null {
  const entries: Buffer[] = [];
  for (let at = 0; at < bundle.length; ) {
    if (at + 2 > bundle.length) return null;
    const length = bundle.readUInt16BE(at);
    if (at + 2 + length > bundle.length) return null;
    entries.push(bundle.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}
