import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openCosignature } from '../domain/cosignature.js';
import type { LogCheckpoint } from '../domain/logCheckpoint.js';
import { leafHash, verifyInclusion } from '../domain/merkleTree.js';
import { type NoteVerifier, parseNoteVerifierKey } from '../domain/signedNote.js';
import { witnessOptions, witnessReport } from './auditWitnesses.js';
import type { CliCommand, CliIo } from './command.js';
import { AuditFailure, fetchOk, openCheckpoint, proveConsistency } from './logClient.js';
import { type Static, Type } from '@sinclair/typebox';
import { checkedJson } from '../platform/checkedJson.js';
import { isRecord } from '../platform/isRecord.js';

const USAGE =
  'matchlog verify-receipt <base URL> --receipt <file> --key <log verifier key> [--witness <witness vkey> …] [--quorum N]' +
  '   (the receipt as a write answered it)';

const Receipt = Type.Object({
  logIndex: Type.Number(),
  entry: Type.String(),
  checkpoint: Type.Union([Type.String(), Type.Null()]),
  inclusionProof: Type.Union([Type.Array(Type.String()), Type.Null()]),
  proofUrl: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
type ReceiptFile = Static<typeof Receipt>;
const CosignedProof = Type.Object({ checkpoint: Type.String(), inclusionProof: Type.Array(Type.String()) });

/** The receipt's entry in a checkpoint note: the note's checkpoint, once the entry's inclusion is proved. */
function included(receipt: ReceiptFile, note: string, proof: string[], verifier: NoteVerifier, what: string): LogCheckpoint {
  const checkpoint = openCheckpoint(note, verifier, what);
  const hashes = proof.map((hash) => Buffer.from(hash, 'base64'));
  if (!verifyInclusion(leafHash(receipt.entry), receipt.logIndex, checkpoint.size, hashes, checkpoint.rootHash))
    throw new AuditFailure(`inclusion: entry ${receipt.logIndex} is not in ${what} (tree of ${checkpoint.size})`);
  return checkpoint;
}

/** The cosigned checkpoint the receipt's entry is proved in: the receipt's own, or the one its proofUrl answers now. */
async function cosignedProof(base: string, receipt: ReceiptFile, witnessed: boolean) {
  if (receipt.checkpoint !== null && receipt.inclusionProof !== null && (!witnessed || /\n— .+\n?$/.test(receipt.checkpoint)))
    return { note: receipt.checkpoint, proof: receipt.inclusionProof };
  const answered = await (await fetchOk(base, `/api/log/entries/${receipt.logIndex}/proof`)).json();
  const answer = checkedJson(CosignedProof, answered, (problem) => new AuditFailure(`inclusion: the proof answered is not one: ${problem}`));
  return { note: answer.checkpoint, proof: answer.inclusionProof };
}

/**
 * A receipt proved by a third party holding the log's key and its witnesses' keys, with no state
 * of its own (docs/auditing.md): the receipt's entry is in a checkpoint the witnesses cosigned,
 * so it was in the log by their cosignatures' time; and the log's latest cosigned checkpoint is
 * consistent with that one, so nobody, the operator included, rewrote it since.
 */
type RequiredWitnesses = Exclude<ReturnType<typeof witnessOptions>, string>;

async function verifyReceipt(base: string, receipt: ReceiptFile, verifier: NoteVerifier, required: RequiredWitnesses, io: CliIo) {
  const now = Math.floor(Date.now() / 1000);
  const witnessed = required.witnesses.length > 0;
  const { note, proof } = await cosignedProof(base, receipt, witnessed);
  const at = included(receipt, note, proof, verifier, "the receipt's checkpoint");
  io.out(`inclusion: entry ${receipt.logIndex} is in the tree of ${at.size}, signed by ${verifier.name}\n`);
  if (witnessed) {
    const report = witnessReport(note, required.witnesses, required.quorum, null, now);
    for (const line of report.lines) io.out(`${line}\n`);
    if (report.failure !== null) throw new AuditFailure(report.failure.replace('the latest checkpoint', "the receipt's checkpoint"));
    const times = required.witnesses.flatMap((witness) => {
      const opened = openCosignature(note, witness);
      return 'time' in opened ? [opened.time] : [];
    });
    // The quorum's latest cosignature: by then, as many witnesses as required had seen the entry in the log.
    const by = times.sort((a, b) => a - b)[required.quorum - 1]!;
    io.out(`witnessed: in the log by ${new Date(by * 1000).toISOString()}\n`);
  }
  const latestNote = await (await fetchOk(base, '/api/log/checkpoint')).text();
  const latest = openCheckpoint(latestNote, verifier, 'the latest checkpoint');
  if (witnessed) {
    const report = witnessReport(latestNote, required.witnesses, required.quorum, null, now);
    if (report.failure !== null) throw new AuditFailure(report.failure);
  }
  await proveConsistency(base, at, latest, 'receipt');
  io.out(`consistency: the log only grew since, to ${latest.size} entries${witnessed ? ', cosigned' : ''}: nobody rewrote the entry\n`);
}

export const verifyReceiptCommand: CliCommand = {
  name: 'verify-receipt',
  summary: "prove a write's receipt against the log's key and its witnesses' keys, with no earlier state (any machine)",
  usage: USAGE,
  async run(args, io) {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        options: { receipt: { type: 'string' }, key: { type: 'string' }, witness: { type: 'string', multiple: true }, quorum: { type: 'string' } },
      });
    } catch (error) {
      io.err(`matchlog verify-receipt: ${error instanceof Error ? error.message : String(error)}\nusage: ${USAGE}\n`);
      return 2;
    }
    const [baseArg] = parsed.positionals;
    const { receipt: receiptFile, key } = parsed.values;
    if (baseArg === undefined || receiptFile === undefined || key === undefined || parsed.positionals.length > 1) {
      io.err(`usage: ${USAGE}\n`);
      return 2;
    }
    const required = witnessOptions(parsed.values);
    if (typeof required === 'string') {
      io.err(`matchlog verify-receipt: ${required}\n`);
      return 2;
    }
    let verifier: NoteVerifier;
    let receipt: ReceiptFile;
    try {
      verifier = parseNoteVerifierKey(key);
      const read: unknown = JSON.parse(readFileSync(receiptFile, 'utf8'));
      // The file may hold the write's whole answer, or its receipt alone.
      const held = isRecord(read) && 'receipt' in read ? read.receipt : read;
      receipt = checkedJson(Receipt, held, (problem) => new Error(`${receiptFile} holds no receipt (logIndex, entry, checkpoint, inclusionProof): ${problem}`));
    } catch (error) {
      io.err(`matchlog verify-receipt: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    try {
      await verifyReceipt(baseArg.replace(/\/+$/, ''), receipt, verifier, required, io);
      io.out('receipt verified\n');
      return 0;
    } catch (error) {
      if (!(error instanceof AuditFailure)) throw error;
      io.err(`FAILED ${error.message}\n`);
      return 1;
    }
  },
};
