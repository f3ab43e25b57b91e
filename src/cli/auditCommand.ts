import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type NoteVerifier, parseNoteVerifierKey } from '../domain/signedNote.js';
import { witnessOptions, witnessReport } from './auditWitnesses.js';
import { auditEntries } from './auditEntries.js';
import type { CliCommand } from './command.js';
import { AuditFailure, fetchOk, openCheckpoint, proveConsistency } from './logClient.js';
import { errorCode } from '../platform/errorCode.js';
import { type Static, Type } from '@sinclair/typebox';
import { checkedJson } from '../platform/checkedJson.js';

/** What an auditor keeps between runs: the last checkpoint it verified, as signed. */
/** The auditor's state file: the checkpoint it last saw signed and checked. */
const AuditState = Type.Object({ origin: Type.String(), size: Type.Number(), rootHash: Type.String(), checkpoint: Type.String() });
type AuditState = Static<typeof AuditState>;

const USAGE =
  'matchlog audit <base URL> --key <verifier key> --state <file> [--full] [--witness <witness vkey> …] [--quorum N] [--max-age <duration: 90s, 10m, 2h, 1d>]';

function readState(file: string): AuditState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  return checkedJson(AuditState, JSON.parse(text), (problem) => new Error(`the state file ${file} is not one matchlog audit wrote: ${problem}`));
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
        options: {
          key: { type: 'string' },
          state: { type: 'string' },
          full: { type: 'boolean', default: false },
          witness: { type: 'string', multiple: true },
          quorum: { type: 'string' },
          'max-age': { type: 'string' },
        },
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
    const required = witnessOptions(parsed.values);
    if (typeof required === 'string') {
      io.err(`matchlog audit: ${required}\n`);
      return 2;
    }
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
      if (required.witnesses.length > 0) {
        const report = witnessReport(note, required.witnesses, required.quorum, required.maxAge, Math.floor(Date.now() / 1000));
        for (const line of report.lines) io.out(`${line}\n`);
        if (report.failure !== null) throw new AuditFailure(report.failure);
      }
      const previous = readState(stateFile);
      if (previous !== null) {
        const seen = openCheckpoint(previous.checkpoint, verifier, 'the checkpoint in the state file');
        await proveConsistency(base, seen, latest, 'auditor');
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
