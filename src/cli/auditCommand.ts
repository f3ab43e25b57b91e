import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type LogCheckpoint, parseCheckpointText } from '../domain/logCheckpoint.js';
import { parseLogEntry } from '../domain/logEntry.js';
import { appendLeaf, frontierRoot, leafHash, verifyConsistency } from '../domain/merkleTree.js';
import { type NoteVerifier, openNote, parseNoteVerifierKey } from '../domain/signedNote.js';
import type { CliCommand, CliIo } from './command.js';

/** What an auditor keeps between runs: the last checkpoint it verified, as signed. */
interface AuditState {
  origin: string;
  size: number;
  rootHash: string;
  checkpoint: string;
}

/** A check that did not hold: the audit says which and stops. */
class AuditFailure extends Error {}

const USAGE = 'matchlog audit <base URL> --key <verifier key> --state <file> [--full]';

async function fetchOk(base: string, path: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`);
  } catch (error) {
    throw new AuditFailure(`cannot reach ${base}${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw new AuditFailure(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response;
}

function openCheckpoint(note: string, verifier: NoteVerifier, what: string): LogCheckpoint {
  const opened = openNote(note, verifier);
  if ('error' in opened) throw new AuditFailure(`signature: ${what}: ${opened.error}`);
  const checkpoint = parseCheckpointText(opened.text);
  if ('error' in checkpoint) throw new AuditFailure(`signature: ${what} is signed but not a checkpoint: ${checkpoint.error}`);
  return checkpoint;
}

function readState(file: string): AuditState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return JSON.parse(text) as AuditState;
}

/**
 * Every entry of the tree of `checkpoint`: fetched one by one, hashed into a tree whose root must
 * be the checkpoint's (so each is included), and each version's payload fetched with its salt
 * and hashed to the entry's payloadSha256. Erased versions (410) are counted, not failed.
 */
async function auditEntries(base: string, checkpoint: LogCheckpoint, io: CliIo) {
  let frontier: Buffer[] = [];
  let versions = 0;
  let erased = 0;
  for (let index = 0; index < checkpoint.size; index += 1) {
    const text = await (await fetchOk(base, `/api/log/entries/${index}`)).text();
    const entry = parseLogEntry(text);
    if (entry === null) throw new AuditFailure(`entry ${index}: not a canonical log entry: ${text.slice(0, 200)}`);
    frontier = appendLeaf(frontier, index, leafHash(text)).frontier;
    if (entry.payloadSha256 === undefined || entry.matchId === undefined) continue;
    versions += 1;
    const where = `entry ${index} (match ${entry.matchId} revision ${entry.revision})`;
    const response = await fetch(`${base}/api/matches/${encodeURIComponent(entry.matchId)}/payload?revision=${entry.revision}`);
    if (response.status === 410) {
      erased += 1;
      continue;
    }
    if (!response.ok) throw new AuditFailure(`digest: ${where}: its payload is not served (${response.status}): the log lost a version its tree holds`);
    const bytes = Buffer.from(await response.arrayBuffer());
    const salt = Buffer.from(response.headers.get('matchlog-payload-salt') ?? '', 'base64');
    const digest = createHash('sha256').update(salt).update(bytes).digest('hex');
    if (digest !== entry.payloadSha256)
      throw new AuditFailure(
        `digest: ${where}: SHA-256(salt ‖ payload) is ${digest}, the log entry says ${entry.payloadSha256}: the version's bytes were changed`,
      );
  }
  if (!frontierRoot(frontier).equals(checkpoint.rootHash))
    throw new AuditFailure(`inclusion: the ${checkpoint.size} entries served do not hash to the checkpoint's root: an entry was changed, removed or added`);
  io.out(`entries: all ${checkpoint.size} hash to the signed root; ${versions} version(s) match their digests${erased > 0 ? `, ${erased} erased` : ''}\n`);
}

/**
 * The auditor's tool (docs/auditing.md): trusts only the verifier key and its own state file.
 * It checks the latest checkpoint's signature, proves it consistent with the last one it saw,
 * and with --full fetches every entry and version and checks them; the state moves on only
 * when every check holds.
 */
export const auditCommand: CliCommand = {
  name: 'audit',
  summary: "check a matchlog server's transparency log against the verifier key and the last checkpoint seen (any machine)",
  usage: USAGE,
  async run(args, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        options: { key: { type: 'string' }, state: { type: 'string' }, full: { type: 'boolean', default: false } },
      });
    } catch (error) {
      io.err(`matchlog audit: ${error instanceof Error ? error.message : String(error)}\nusage: ${USAGE}\n`);
      return 2;
    }
    const [baseArg] = parsed.positionals;
    const { key, state: stateFile, full } = parsed.values;
    if (baseArg === undefined || key === undefined || stateFile === undefined || parsed.positionals.length > 1) {
      io.err(`usage: ${USAGE}\n`);
      return 2;
    }
    const base = baseArg.replace(/\/+$/, '');
    let verifier: NoteVerifier;
    try {
      verifier = parseNoteVerifierKey(key);
    } catch (error) {
      io.err(`matchlog audit: --key: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    try {
      const note = await (await fetchOk(base, '/api/log/checkpoint')).text();
      const latest = openCheckpoint(note, verifier, 'the latest checkpoint');
      io.out(`checkpoint: signed by ${verifier.name}, origin ${latest.origin}, ${latest.size} entries\n`);
      const previous = readState(stateFile);
      if (previous !== null) {
        const seen = openCheckpoint(previous.checkpoint, verifier, 'the checkpoint in the state file');
        if (seen.origin !== latest.origin) throw new AuditFailure(`consistency: the log's origin is ${latest.origin}, this auditor followed ${seen.origin}`);
        if (latest.size < seen.size)
          throw new AuditFailure(`consistency: rollback: the log has ${latest.size} entries, fewer than the ${seen.size} this auditor saw signed`);
        const response = await fetchOk(base, `/api/log/proof/consistency?from=${seen.size}&to=${latest.size}`);
        const proof = ((await response.json()) as { hashes: string[] }).hashes.map((hash) => Buffer.from(hash, 'base64'));
        if (!verifyConsistency(seen.size, latest.size, proof, seen.rootHash, latest.rootHash)) {
          throw new AuditFailure(
            `consistency: fork: the tree of ${latest.size} entries does not extend the tree of ${seen.size} this auditor saw signed ` +
              `(root ${seen.rootHash.toString('base64')})`,
          );
        }
        io.out(`consistency: the log only grew since the ${seen.size} entries seen last\n`);
      } else {
        io.out(`consistency: no earlier checkpoint in ${stateFile}; this one is the start\n`);
      }
      if (full) await auditEntries(base, latest, io);
      const next: AuditState = { origin: latest.origin, size: latest.size, rootHash: latest.rootHash.toString('base64'), checkpoint: note };
      writeFileSync(`${stateFile}.tmp`, `${JSON.stringify(next, null, 2)}\n`);
      renameSync(`${stateFile}.tmp`, stateFile);
      io.out('audit passed\n');
      return 0;
    } catch (error) {
      if (!(error instanceof AuditFailure)) throw error;
      io.err(`FAILED ${error.message}\n`);
      return 1;
    }
  },
};
