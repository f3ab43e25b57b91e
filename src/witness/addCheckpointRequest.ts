import { type LogCheckpoint, parseCheckpointText } from '../domain/logCheckpoint.js';

/** The most consistency proof lines a client may send (c2sp.org/tlog-witness). */
const MAX_PROOF_LINES = 63;

/** A parsed `POST /add-checkpoint` body: what the log says the witness saw, and what it shows now. */
export interface AddCheckpointRequest {
  oldSize: number;
  consistencyProof: Buffer[];
  /** The signed checkpoint note as sent. */
  note: string;
  /** The note's text: what a cosignature signs. */
  body: string;
  checkpoint: LogCheckpoint;
}

const HASH_LINE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Parses a C2SP tlog-witness add-checkpoint body: `old <size>`, up to 63 base64 hash lines, a
 * blank line, a checkpoint note. An error names what is malformed (the witness answers 400).
 */
export function parseAddCheckpointRequest(text: string): AddCheckpointRequest | { error: string } {
  const blank = text.indexOf('\n\n');
  if (blank < 0) return { error: 'no blank line after the old size and the consistency proof' };
  const [oldLine = '', ...proofLines] = text.slice(0, blank).split('\n');
  const old = /^old (0|[1-9][0-9]{0,15})$/.exec(oldLine);
  if (old === null || !Number.isSafeInteger(Number(old[1]))) return { error: 'the first line is not "old <size>" in decimal' };
  if (proofLines.length > MAX_PROOF_LINES) return { error: `more than ${MAX_PROOF_LINES} consistency proof lines` };
  if (proofLines.some((line) => !HASH_LINE.test(line))) return { error: 'a consistency proof line is not a base64 hash' };
  const note = text.slice(blank + 2);
  const noteBlank = note.indexOf('\n\n');
  if (noteBlank < 0 || !note.endsWith('\n')) return { error: 'the checkpoint is not a signed note' };
  const body = note.slice(0, noteBlank + 1);
  const checkpoint = parseCheckpointText(body);
  if ('error' in checkpoint) return checkpoint;
  return { oldSize: Number(old[1]), consistencyProof: proofLines.map((line) => Buffer.from(line, 'base64')), note, body, checkpoint };
}
