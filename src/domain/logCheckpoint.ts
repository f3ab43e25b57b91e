/**
 * The body of a C2SP tlog-checkpoint (c2sp.org/tlog-checkpoint): the log's origin, its size
 * in decimal and its root hash in base64, a line each.
 */
export interface LogCheckpoint {
  origin: string;
  size: number;
  rootHash: Buffer;
}

export const checkpointText = ({ origin, size, rootHash }: LogCheckpoint) => `${origin}\n${size}\n${rootHash.toString('base64')}\n`;

/** Parses a checkpoint body; extension lines after the third are allowed and ignored. */
export function parseCheckpointText(text: string): LogCheckpoint | { error: string } {
  const lines = text.split('\n');
  const [origin, size, root] = lines;
  if (lines.length < 4 || origin === undefined || origin === '' || size === undefined || root === undefined)
    return { error: 'a checkpoint has an origin, a size and a root hash line' };
  if (!/^(0|[1-9][0-9]{0,15})$/.test(size) || !Number.isSafeInteger(Number(size)))
    return { error: `the checkpoint size ${JSON.stringify(size)} is not a decimal number` };
  const rootHash = Buffer.from(root, 'base64');
  if (rootHash.length !== 32 || rootHash.toString('base64') !== root) return { error: 'the checkpoint root hash is not 32 bytes of base64' };
  return { origin, size: Number(size), rootHash };
}
