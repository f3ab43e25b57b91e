import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type Cosigner, cosignatureLine } from '../domain/cosignature.js';
import type { NoteVerifier } from '../domain/signedNote.js';
import { parseAddCheckpointRequest } from './addCheckpointRequest.js';
import { persistWitnessed, readWitnessed } from './witnessRecords.js';
import { judgeAddCheckpoint } from './witnessVerdict.js';

/** A request body above this is refused (413): 63 proof lines and a note with many signatures fit well under it. */
const MAX_BODY_BYTES = 64 * 1024;

export interface WitnessOptions {
  dir: string;
  cosigner: Cosigner;
  /** The log keys trusted for each origin (a log's origin is its key's name). */
  trustedKeys: ReadonlyMap<string, readonly NoteVerifier[]>;
  /** Told of a request that failed inside the witness (answered 500). */
  reportError: (error: unknown) => void;
  now?: () => number;
}

type Answer = { status: number; body: string; type?: string };

/** Runs `task` after every earlier task for the same key has settled: one check-and-persist per origin at a time. */
function keyedQueue() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => T): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request) {
    // An IncomingMessage without an encoding set gives Buffers.
    if (!Buffer.isBuffer(chunk)) return null;
    length += chunk.length;
    if (length > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A C2SP tlog-witness (c2sp.org/tlog-witness) serving `POST /add-checkpoint`: it cosigns a
 * checkpoint only after persisting it as the latest for its origin, checked against the one
 * before under that origin's lock, so a smaller tree is never cosigned after a larger one.
 * One process per folder: the lock is this process's.
 */
export function createWitnessServer({ dir, cosigner, trustedKeys, reportError, now = () => Math.floor(Date.now() / 1000) }: WitnessOptions): Server {
  const serialized = keyedQueue();
  const addCheckpoint = async (text: string): Promise<Answer> => {
    const request = parseAddCheckpointRequest(text);
    if ('error' in request) return { status: 400, body: `${request.error}\n` };
    const origin = request.checkpoint.origin;
    return serialized(origin, () => {
      const verdict = judgeAddCheckpoint(request, trustedKeys, trustedKeys.has(origin) ? readWitnessed(dir, origin) : null);
      if (verdict.status === 409) return { status: 409, body: `${verdict.latestSize}\n`, type: 'text/x.tlog.size' };
      if (verdict.status !== 200) return { status: verdict.status, body: `${verdict.message}\n` };
      const { size, rootHash } = verdict.checkpoint;
      persistWitnessed(dir, { origin, size, rootHash: rootHash.toString('base64'), checkpoint: request.note });
      return { status: 200, body: `${cosignatureLine(request.body, cosigner, now())}\n` };
    });
  };
  const answer = (response: ServerResponse, { status, body, type = 'text/plain; charset=utf-8' }: Answer) =>
    response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
  return createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/add-checkpoint') return answer(response, { status: 404, body: 'not found\n' });
    if (request.method !== 'POST') return answer(response.setHeader('allow', 'POST'), { status: 405, body: 'POST only\n' });
    readBody(request)
      .then((text) => (text === null ? { status: 413, body: `a request body is at most ${MAX_BODY_BYTES} bytes\n` } : addCheckpoint(text)))
      .then((result) => answer(response, result))
      .catch((error: unknown) => {
        reportError(error);
        answer(response, { status: 500, body: 'the witness could not record the checkpoint\n' });
      });
  });
}
