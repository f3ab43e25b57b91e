import { type Static, Type } from '@sinclair/typebox';
import { parseLogEntry } from '../domain/logEntry.js';
import { summarizeMatchText } from '../domain/matchPayload.js';
import { appendLeaf, frontierRoot, leafHash } from '../domain/merkleTree.js';
import type { NoteVerifier } from '../domain/signedNote.js';
import { AuditFailure, fetchOk, openCheckpoint, proveConsistency } from './logClient.js';
import { servedEntries } from './logEntriesClient.js';
import { checkedPayload } from './versionPayload.js';

/** What a monitor keeps between passes: the last checkpoint it verified, its tree's frontier, and each watched match's last status. */
export const MonitorState = Type.Object({
  checkpoint: Type.String(),
  /** Base64 roots of the complete subtrees of that checkpoint's tree, largest first. */
  frontier: Type.Array(Type.String()),
  matches: Type.Record(Type.String(), Type.Object({ revision: Type.Number(), status: Type.Union([Type.String(), Type.Null()]) })),
});
export type MonitorState = Static<typeof MonitorState>;

/** Which entries a monitor reports: those of these matches, or of this club's stream. */
export interface Watched {
  matchIds: ReadonlySet<string>;
  clubId: string | null;
}

/**
 * One pass of `matchlog monitor`: the latest checkpoint's signature, its consistency with the one
 * in `state`, then every entry since, hashed onto the state's frontier (their root must be the
 * signed one, so they are exactly the entries the log added), each of a watched match reported
 * with its payload checked against its digest; a version after one whose status was final is
 * flagged. Answers the next state; throws AuditFailure on any check that does not hold.
 */
export async function monitorPass(base: string, verifier: NoteVerifier, state: MonitorState | null, watched: Watched, out: (line: string) => void) {
  const note = await (await fetchOk(base, '/api/log/checkpoint')).text();
  const latest = openCheckpoint(note, verifier, 'the latest checkpoint');
  const seen = state === null ? null : openCheckpoint(state.checkpoint, verifier, 'the checkpoint in the state file');
  if (seen !== null) await proveConsistency(base, seen, latest, 'monitor');
  let frontier: Buffer[] = (state?.frontier ?? []).map((hash) => Buffer.from(hash, 'base64'));
  const matches = { ...state?.matches };
  const from = seen?.size ?? 0;
  for await (const batch of servedEntries(base, from, latest.size)) {
    for (const { index, text } of batch) {
      frontier = appendLeaf(frontier, index, leafHash(text)).frontier;
      const entry = parseLogEntry(text);
      if (entry === null) throw new AuditFailure(`entry ${index}: not a canonical log entry: ${text.slice(0, 200)}`);
      if (entry.clubId !== undefined && entry.clubId === watched.clubId)
        out(`entry ${index}: club ${entry.clubId} revision ${entry.revision} ${entry.type} at ${entry.recordedAt}`);
      const { matchId, payloadSha256 } = entry;
      if (matchId === undefined || !watched.matchIds.has(matchId)) continue;
      const where = `entry ${index}: match ${matchId} revision ${entry.revision} ${entry.type} at ${entry.recordedAt}`;
      const before = matches[matchId];
      if (payloadSha256 === undefined) {
        out(`${where}`);
        continue;
      }
      const payload = await checkedPayload(base, { ...entry, matchId, payloadSha256 }, where);
      const status = payload.erased ? null : (summarizeMatchText(payload.text).status ?? null);
      const afterFinal = before?.status === 'final' ? `CHANGED AFTER FINAL (revision ${before.revision} was final): ` : '';
      out(`${afterFinal}${where}: ${payload.erased ? 'erased since' : `payload matches its digest, status ${status ?? 'unknown'}`}`);
      matches[matchId] = { revision: entry.revision, status };
    }
  }
  if (!frontierRoot(frontier).equals(latest.rootHash))
    throw new AuditFailure(
      `inclusion: the entries ${from}–${latest.size - 1} served do not extend the tree seen to the checkpoint's root: an entry was changed, removed or added`,
    );
  out(`checkpoint: ${latest.size} entries, ${latest.size - from} new, consistent with the ${from} seen before\n`.trimEnd());
  const next: MonitorState = { checkpoint: note, frontier: frontier.map((hash) => hash.toString('base64')), matches };
  return next;
}
