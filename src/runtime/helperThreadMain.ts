import { parentPort } from 'node:worker_threads';
import { type DiffBasis, diffBases } from '../domain/matchDiff.js';
import { diffBasisOfText } from '../domain/matchDiffText.js';
import { matchTeamNames, matchTeamNamesOfText, summarizeMatch } from '../domain/matchPayload.js';
import { type BodyReadElsewhere, bodyStandIn, decodeBody, parseBody } from '../http/api/jsonBodyText.js';
import type { HelperJob, HelperJobOf, HelperReply } from './helperThread.js';
import { basisObject } from '../domain/storedBasis.js';

/** How long a value made here is kept for the next job (below). */
const KEPT_MS = 1000;

/**
 * One value made from a text, kept for a job that comes with the same text soon after, and let go
 * of after KEPT_MS: a large parse kept alive made each collection V8 runs on the idle thread mark
 * it (~50 ms of a 290,000-key body's, charged to whatever request the process was serving then).
 */
function keptAWhile<V>() {
  let kept: { text: string; value: V } | null = null;
  let letGo: NodeJS.Timeout | null = null;
  function forget() {
    kept = null;
    if (letGo !== null) clearTimeout(letGo);
    letGo = null;
  }
  return {
    /** The value kept for `text` (compared whole: equal texts, however made, give equal values). */
    of: (text: string): V | undefined => (kept !== null && kept.text === text ? kept.value : undefined),
    keep(text: string, value: V) {
      forget();
      kept = { text, value };
      letGo = setTimeout(forget, KEPT_MS).unref();
    },
    forget,
  };
}

/**
 * The last body read here, parsed: its version's diff basis, asked for next, is made from it as
 * the write path's is from the request's parse (the same basis, without parsing it again).
 */
const lastRead = keptAWhile<unknown>();

/** The last basis made here, by its text: the next version of the match is compared with it without parsing it back. */
const lastBasis = keptAWhile<DiffBasis>();

function readBody(bytes: Uint8Array, shape: HelperJobOf<'readBody'>['shape']): BodyReadElsewhere {
  lastRead.forget();
  const decoded = decodeBody(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if ('problem' in decoded) return decoded;
  const parsed = parseBody(decoded.text, shape);
  if ('problem' in parsed) return parsed;
  lastRead.keep(decoded.trimmed, parsed.value);
  return { text: decoded.trimmed, standIn: bodyStandIn(parsed.value) };
}

/** diffBasisOfText(text, previous), from the body last read when it is `text`'s. */
function basisOfText(text: string, previous: DiffBasis | null): DiffBasis {
  const body = lastRead.of(text);
  const parsed = body === undefined ? undefined : { body, summary: () => summarizeMatch(body) };
  return diffBasisOfText(text, previous, undefined, parsed);
}

/** `basis` as its text, kept with it. */
function keptText(basis: DiffBasis): string {
  const text = JSON.stringify(basis);
  lastBasis.keep(text, basis);
  return text;
}

const diffBasis = ({ text }: HelperJobOf<'diffBasis'>) => keptText(basisOfText(text, null));

function versionDiff({ text, previous }: HelperJobOf<'versionDiff'>) {
  const before = lastBasis.of(previous) ?? basisObject(previous);
  const after = basisOfText(text, before);
  return { diff: diffBases(before, after), basis: keptText(after) };
}

function teamNames({ text }: HelperJobOf<'teamNames'>) {
  const body = lastRead.of(text);
  return body === undefined ? matchTeamNamesOfText(text) : matchTeamNames(body);
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
    case 'versionDiff':
      return versionDiff(job);
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
