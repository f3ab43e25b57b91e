import type { LogCheckpoint } from '../domain/logCheckpoint.js';
import { parseLogEntry } from '../domain/logEntry.js';
import { appendLeaf, frontierRoot, leafHash } from '../domain/merkleTree.js';
import { mapInOrder } from '../platform/boundedConcurrency.js';
import type { CliIo } from './command.js';
import { createFactsCheck } from './auditFacts.js';
import { AuditFailure } from './logClient.js';
import { servedEntries } from './logEntriesClient.js';
import { checkedPayload } from './versionPayload.js';

/** Payloads fetched at once: the server's and the auditor's work overlap; more gained nothing on two cores. */
const PAYLOADS_IN_FLIGHT = 8;

/**
 * `audit --full`: every entry of the tree of `checkpoint` (by entry bundles where served), hashed
 * into a tree whose root must be the checkpoint's (so each is included), and each version's
 * payload fetched with its salt and hashed to the entry's payloadSha256, a few at a time; the
 * first failure in log order is the one reported. Erased versions (410) are counted, not failed.
 */
export async function auditEntries(base: string, checkpoint: LogCheckpoint, io: CliIo) {
  let frontier: Buffer[] = [];
  let versions = 0;
  let erased = 0;
  const facts = createFactsCheck();
  for await (const batch of servedEntries(base, 0, checkpoint.size)) {
    const checks = batch.map(({ index, text }) => {
      const entry = parseLogEntry(text);
      if (entry === null) throw new AuditFailure(`entry ${index}: not a canonical log entry: ${text.slice(0, 200)}`);
      frontier = appendLeaf(frontier, index, leafHash(text)).frontier;
      facts.entry(entry, `entry ${index}`);
      const { matchId, payloadSha256 } = entry;
      return matchId === undefined || payloadSha256 === undefined
        ? null
        : { entry: { ...entry, matchId, payloadSha256 }, where: `entry ${index} (match ${matchId} revision ${entry.revision})` };
    });
    const payloads = await mapInOrder(checks, PAYLOADS_IN_FLIGHT, async (check) => (check === null ? null : checkedPayload(base, check.entry, check.where)));
    for (const [at, payload] of payloads.entries()) {
      const check = checks[at];
      if (payload === null || check === null || check === undefined) continue;
      versions += 1;
      if (payload.erased) {
        erased += 1;
        facts.erasedVersion(check.entry.matchId, check.entry.revision);
      }
    }
  }
  if (!frontierRoot(frontier).equals(checkpoint.rootHash))
    throw new AuditFailure(`inclusion: the ${checkpoint.size} entries served do not hash to the checkpoint's root: an entry was changed, removed or added`);
  await facts.finish(base);
  io.out(`entries: all ${checkpoint.size} hash to the signed root; ${versions} version(s) match their digests${erased > 0 ? `, ${erased} erased` : ''}\n`);
  io.out('facts: every match in revision order, its protection and tokens as committed, every erasure recorded, the API agreeing\n');
}
