import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { type NoteVerifier, parseNoteVerifierKey } from '../domain/signedNote.js';
import type { CliCommand } from './command.js';
import { AuditFailure } from './logClient.js';
import { MonitorState, monitorPass } from './monitorRun.js';
import { errorCode } from '../platform/errorCode.js';
import { checkedJson } from '../platform/checkedJson.js';

const USAGE = 'matchlog monitor <base URL> --key <verifier key> --state <file> [--match <id> …|--club <id>] [--once] [--interval <seconds>]';

function readState(file: string): MonitorState | null {
  try {
    return checkedJson(
      MonitorState,
      JSON.parse(readFileSync(file, 'utf8')),
      (problem) => new Error(`the state file ${file} is not one matchlog monitor wrote: ${problem}`),
    );
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

function writeState(file: string, state: MonitorState) {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/**
 * The monitor (docs/auditing.md, *Monitoring*): follows a log from its state file, proving each
 * new checkpoint consistent with the last and reporting every new entry of the watched matches
 * (or club). Exits 1 at the first check that fails, the state left at the last that held.
 */
export const monitorCommand: CliCommand = {
  name: 'monitor',
  summary: "follow a matchlog server's transparency log: prove it only grows and report each new entry of the matches watched (any machine)",
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
          match: { type: 'string', multiple: true, default: [] },
          club: { type: 'string' },
          once: { type: 'boolean', default: false },
          interval: { type: 'string', default: '60' },
        },
      });
    } catch (error) {
      io.err(`matchlog monitor: ${error instanceof Error ? error.message : String(error)}\nusage: ${USAGE}\n`);
      return 2;
    }
    const [baseArg] = parsed.positionals;
    const { key, state: stateFile, match, club, once, interval } = parsed.values;
    const intervalSeconds = Number(interval);
    if (baseArg === undefined || key === undefined || stateFile === undefined || parsed.positionals.length > 1 || !(intervalSeconds > 0)) {
      io.err(`usage: ${USAGE}\n`);
      return 2;
    }
    let verifier: NoteVerifier;
    try {
      verifier = parseNoteVerifierKey(key);
    } catch (error) {
      io.err(`matchlog monitor: --key: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    const base = baseArg.replace(/\/+$/, '');
    const watched = { matchIds: new Set(match), clubId: club ?? null };
    for (;;) {
      try {
        writeState(stateFile, await monitorPass(base, verifier, readState(stateFile), watched, (line) => io.out(`${line}\n`)));
      } catch (error) {
        if (!(error instanceof AuditFailure)) throw error;
        io.err(`FAILED ${error.message}\n`);
        return 1;
      }
      if (once) return 0;
      await sleep(intervalSeconds * 1000);
    }
  },
};
