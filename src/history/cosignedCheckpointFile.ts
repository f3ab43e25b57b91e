import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { parseCheckpointText } from '../domain/logCheckpoint.js';
import type { CosignedCheckpoint } from './cosignedCheckpoints.js';
import { errorCode } from '../platform/errorCode.js';

/**
 * The newest cosigned checkpoint, kept in one file (DATA_DIR/cosigned-checkpoint.note, the note
 * as served) so a restarted server answers it at once, even while its witnesses are down.
 * Cosignatures cannot be made again from the log, so they are not in a read model (which a
 * rebuild makes from the log alone).
 */
export function readCosignedCheckpoint(file: string, origin: string): CosignedCheckpoint | null {
  let note: string;
  try {
    note = readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  const split = note.indexOf('\n\n');
  const body = split < 0 ? null : parseCheckpointText(note.slice(0, split + 1));
  // Another log's (a changed origin) or a damaged file: the witnesses will cosign anew.
  if (body === null || 'error' in body || body.origin !== origin) return null;
  return { size: body.size, rootHash: body.rootHash, note };
}

/**
 * Writes each newest checkpoint atomically (a temporary file, then a rename); while one write
 * runs, only the latest of those that came meanwhile is written after it.
 */
export function cosignedCheckpointWriter(file: string, onError: (error: unknown) => void) {
  let writing = false;
  let next: string | null = null;
  async function drain() {
    writing = true;
    while (next !== null) {
      const note = next;
      next = null;
      try {
        await writeFile(`${file}.tmp`, note);
        await rename(`${file}.tmp`, file);
      } catch (error) {
        onError(error);
      }
    }
    writing = false;
  }
  return (checkpoint: CosignedCheckpoint) => {
    next = checkpoint.note;
    if (!writing) void drain();
  };
}
