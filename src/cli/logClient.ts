import { type LogCheckpoint, parseCheckpointText } from '../domain/logCheckpoint.js';
import { verifyConsistency } from '../domain/merkleTree.js';
import { type NoteVerifier, openNote } from '../domain/signedNote.js';
import { Type } from '@sinclair/typebox';
import { checkedJson } from '../platform/checkedJson.js';

/** A check of a log server that did not hold: `audit` and `monitor` say which and stop (exit 1). */
export class AuditFailure extends Error {}

/** GET `path` of the server at `base`; anything but a 2xx is a failure naming what answered. */
export async function fetchOk(base: string, path: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`);
  } catch (error) {
    throw new AuditFailure(`cannot reach ${base}${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw new AuditFailure(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response;
}

/** The checkpoint a note signed by `verifier` holds; `what` names the note in the failure. */
export function openCheckpoint(note: string, verifier: NoteVerifier, what: string): LogCheckpoint {
  const opened = openNote(note, verifier);
  if ('error' in opened) throw new AuditFailure(`signature: ${what}: ${opened.error}`);
  const checkpoint = parseCheckpointText(opened.text);
  if ('error' in checkpoint) throw new AuditFailure(`signature: ${what} is signed but not a checkpoint: ${checkpoint.error}`);
  return checkpoint;
}

const ConsistencyProof = Type.Object({ hashes: Type.Array(Type.String()) });

/**
 * Proves with the server's consistency proof that `latest` extends `seen` (both verified
 * checkpoints); a smaller tree is a rollback, any other mismatch a fork.
 */
export async function proveConsistency(base: string, seen: LogCheckpoint, latest: LogCheckpoint, who: string): Promise<void> {
  if (seen.origin !== latest.origin) throw new AuditFailure(`consistency: the log's origin is ${latest.origin}, this ${who} followed ${seen.origin}`);
  if (latest.size < seen.size)
    throw new AuditFailure(`consistency: rollback: the log has ${latest.size} entries, fewer than the ${seen.size} this ${who} saw signed`);
  const response = await fetchOk(base, `/api/log/proof/consistency?from=${seen.size}&to=${latest.size}`);
  const answer = checkedJson(ConsistencyProof, await response.json(), (problem) => new AuditFailure(`consistency: the proof answered is not one: ${problem}`));
  const proof = answer.hashes.map((hash) => Buffer.from(hash, 'base64'));
  if (!verifyConsistency(seen.size, latest.size, proof, seen.rootHash, latest.rootHash)) {
    throw new AuditFailure(
      `consistency: fork: the tree of ${latest.size} entries does not extend the tree of ${seen.size} this ${who} saw signed ` +
        `(root ${seen.rootHash.toString('base64')})`,
    );
  }
}
