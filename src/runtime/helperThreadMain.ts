import { parentPort } from 'node:worker_threads';
import type { DiffBasis } from '../domain/matchDiff.js';
import { diffBasisOfText } from '../domain/matchDiffText.js';
import { matchTeamNames, matchTeamNamesOfText, summarizeMatch } from '../domain/matchPayload.js';
import { type BodyReadElsewhere, bodyStandIn, decodeBody, parseBody } from '../http/api/jsonBodyText.js';
import type { HelperJob, HelperJobOf, HelperReply } from './helperThread.js';

/**
 * The last body read here, parsed: its version's diff basis, asked for next, is made from it as
 * the write path's is from the request's parse (the same basis, without parsing it again). Let go
 * of after LAST_READ_MS: a parse kept alive made each collection V8 runs on the idle thread mark it
 * (~50 ms of a 290,000-key body's, charged to whatever request the process was serving then).
 */
let lastRead: { text: string; body: unknown } | null = null;
const LAST_READ_MS = 1000;
let letGo: NodeJS.Timeout | null = null;

function keepRead(read: { text: string; body: unknown } | null) {
  lastRead = read;
  if (letGo !== null) clearTimeout(letGo);
  letGo = read === null ? null : setTimeout(() => keepRead(null), LAST_READ_MS).unref();
}

function readBody(bytes: Uint8Array, shape: HelperJobOf<'readBody'>['shape']): BodyReadElsewhere {
  keepRead(null);
  const decoded = decodeBody(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if ('problem' in decoded) return decoded;
  const parsed = parseBody(decoded.text, shape);
  if ('problem' in parsed) return parsed;
  keepRead({ text: decoded.trimmed, body: parsed.value });
  return { text: decoded.trimmed, standIn: bodyStandIn(parsed.value) };
}

/** The body last read here when `text` is its text. */
const readBodyOf = (text: string) => (lastRead !== null && lastRead.text === text ? { body: lastRead.body } : null);

function diffBasis({ text, previous }: HelperJobOf<'diffBasis'>) {
  const read = readBodyOf(text);
  const parsed = read === null ? undefined : { body: read.body, summary: () => summarizeMatch(read.body) };
  return JSON.stringify(diffBasisOfText(text, previous === null ? null : (JSON.parse(previous) as DiffBasis), undefined, parsed));
}

function teamNames({ text }: HelperJobOf<'teamNames'>) {
  const read = readBodyOf(text);
  return read === null ? matchTeamNamesOfText(text) : matchTeamNames(read.body);
}

/**
 * The helper thread (./helperThread.ts): does one job at a time, in the order they come, and
 * answers each with its id. A job that throws is answered with its message; the caller then does
 * it in place, where it throws the same.
 */
function run(job: HelperJob): unknown {
  switch (job.kind) {
    case 'readBody':
      return readBody(job.body, job.shape);
    case 'diffBasis':
      return diffBasis(job);
    case 'teamNames':
      return teamNames(job);
  }
}

parentPort?.on('message', (job: HelperJob) => {
  let reply: HelperReply;
  try {
    reply = { id: job.id, result: run(job) };
  } catch (error) {
    reply = { id: job.id, error: String(error) };
  }
  parentPort?.postMessage(reply);
});
