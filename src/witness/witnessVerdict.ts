import type { LogCheckpoint } from '../domain/logCheckpoint.js';
import { EMPTY_ROOT, verifyConsistency } from '../domain/merkleTree.js';
import { type NoteVerifier, openNote } from '../domain/signedNote.js';
import type { AddCheckpointRequest } from './addCheckpointRequest.js';

/** What a witness answers an add-checkpoint request, in the order C2SP tlog-witness checks. */
export type WitnessVerdict =
  | { status: 200; checkpoint: LogCheckpoint }
  | { status: 409; latestSize: number; message: string }
  | { status: 400 | 403 | 404 | 422; message: string };

/** The latest checkpoint a witness cosigned for one origin. */
export interface WitnessedCheckpoint {
  size: number;
  rootHash: Buffer;
}

/**
 * Judges a request against the keys trusted for each origin and the latest checkpoint cosigned
 * for its origin (null: none yet, which counts as size 0). Pure: the caller persists a 200's
 * checkpoint before answering, under the origin's lock.
 */
export function judgeAddCheckpoint(
  request: AddCheckpointRequest,
  trustedKeys: ReadonlyMap<string, readonly NoteVerifier[]>,
  latest: WitnessedCheckpoint | null,
): WitnessVerdict {
  const { checkpoint, oldSize, consistencyProof } = request;
  const keys = trustedKeys.get(checkpoint.origin);
  if (keys === undefined) return { status: 404, message: `unknown log origin ${JSON.stringify(checkpoint.origin)}` };
  if (!keys.some((key) => 'text' in openNote(request.note, key))) return { status: 403, message: 'no signature by a key trusted for this log verifies' };
  if (oldSize > checkpoint.size) return { status: 400, message: `old size ${oldSize} is above the checkpoint's size ${checkpoint.size}` };
  const latestSize = latest?.size ?? 0;
  if (oldSize !== latestSize) return { status: 409, latestSize, message: `the latest checkpoint cosigned for this log has size ${latestSize}` };
  const latestRoot = latest?.rootHash ?? EMPTY_ROOT;
  if (oldSize === checkpoint.size && !latestRoot.equals(checkpoint.rootHash))
    return { status: 409, latestSize, message: `the checkpoint of size ${latestSize} cosigned for this log has another root hash` };
  if (!verifyConsistency(oldSize, checkpoint.size, consistencyProof, latestRoot, checkpoint.rootHash))
    return { status: 422, message: `the consistency proof from size ${oldSize} to ${checkpoint.size} does not verify` };
  return { status: 200, checkpoint };
}
