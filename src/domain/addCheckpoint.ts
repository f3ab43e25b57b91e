/**
 * The C2SP tlog-witness add-checkpoint exchange (c2sp.org/tlog-witness), as text: the request
 * body a log sends and what it reads back. No I/O here.
 */

/** The media type of a 409's body: the witness's latest size of this log, in decimal. */
export const TLOG_SIZE_TYPE = 'text/x.tlog.size';

/** `old <size>`, the consistency proof's hashes a base64 line each, a blank line, the signed checkpoint note. */
export function addCheckpointBody(oldSize: number, consistencyProof: readonly Buffer[], signedCheckpoint: string): string {
  return `old ${oldSize}\n${consistencyProof.map((hash) => `${hash.toString('base64')}\n`).join('')}\n${signedCheckpoint}`;
}

/** The size a 409 names (one decimal line), or null when the body is not one. */
export function parseTlogSize(body: string): number | null {
  const match = /^(0|[1-9][0-9]{0,15})\n?$/.exec(body);
  if (match === null) return null;
  const size = Number(match[1]);
  return Number.isSafeInteger(size) ? size : null;
}

/** A 200's body: one or more note signature lines (`— <name> <base64>`); null when it is anything else. */
export function parseSignatureLines(body: string): string[] | null {
  const lines = body.endsWith('\n') ? body.slice(0, -1).split('\n') : body.split('\n');
  if (lines.length === 0 || lines.some((line) => !/^\u2014 \S+ \S+$/u.test(line))) return null;
  return lines;
}
