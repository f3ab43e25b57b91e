import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cosignatureLine, newCosignerKey } from '../../src/domain/cosignature.js';
import { parseCheckpointText } from '../../src/domain/logCheckpoint.js';
import { EMPTY_ROOT, verifyConsistency } from '../../src/domain/merkleTree.js';
import { type NoteVerifier, openNote } from '../../src/domain/signedNote.js';

export interface TestWitness {
  name: string;
  /** Its cosignature verifier key (type 0x04). */
  key: string;
  /** Its submission prefix. */
  url: string;
  /** Each request's old size and the checkpoint size, in order, with the status answered. */
  requests: { old: number; size: number; status: number }[];
  /** Its latest size of the log. */
  size(): number;
  /** Sets its latest size (as if it had seen the log elsewhere): the next request gets a 409. */
  forget(size: number, root?: Buffer): void;
  /** Holds each answer this long. */
  delayMs: number;
  /** Added to the time it cosigns at (a witness whose cosignatures are old). */
  clockOffsetSeconds: number;
  /** Stops listening (connections refused) until `up`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const answer = (res: import('node:http').ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8') => {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
  return status;
};

/**
 * A minimal C2SP tlog-witness for tests: `POST /add-checkpoint` as the spec says (404 unknown
 * origin, 403 bad signature, 400 old beyond the checkpoint, 409 + text/x.tlog.size, 422 bad
 * proof), cosigning with cosignature/v1. One log, its state in memory.
 */
export async function startTestWitness(t: { teardown(fn: () => Promise<void>): void }, name: string, logKey: NoteVerifier): Promise<TestWitness> {
  const { cosigner, verifierKey } = newCosignerKey(name);
  let latest: { size: number; root: Buffer } = { size: 0, root: EMPTY_ROOT };
  const requests: TestWitness['requests'] = [];
  let port = 0;
  let server: Server | null = null;

  function addCheckpoint(text: string, res: import('node:http').ServerResponse): number {
    const blank = text.indexOf('\n\n');
    const header = blank < 0 ? [] : text.slice(0, blank).split('\n');
    const oldMatch = /^old (0|[1-9][0-9]*)$/.exec(header[0] ?? '');
    if (oldMatch === null) return answer(res, 400, 'no old size line\n');
    const old = Number(oldMatch[1]);
    const proof = header.slice(1).map((line) => Buffer.from(line, 'base64'));
    const note = text.slice(blank + 2);
    const origin = note.slice(0, note.indexOf('\n'));
    if (origin !== logKey.name) return answer(res, 404, 'unknown log\n');
    const opened = openNote(note, logKey);
    if ('error' in opened) return answer(res, 403, `${opened.error}\n`);
    const checkpoint = parseCheckpointText(opened.text);
    if ('error' in checkpoint) return answer(res, 400, `${checkpoint.error}\n`);
    requests.at(-1)!.size = checkpoint.size;
    if (old > checkpoint.size) return answer(res, 400, 'old size beyond the checkpoint\n');
    if (old !== latest.size) return answer(res, 409, `${latest.size}\n`, 'text/x.tlog.size');
    if (old === checkpoint.size ? !checkpoint.rootHash.equals(latest.root) : !verifyConsistency(old, checkpoint.size, proof, latest.root, checkpoint.rootHash))
      return answer(res, 422, 'the consistency proof does not verify\n');
    latest = { size: checkpoint.size, root: checkpoint.rootHash };
    return answer(res, 200, `${cosignatureLine(opened.text, cosigner, Math.floor(Date.now() / 1000) + witness.clockOffsetSeconds)}\n`);
  }

  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          setTimeout(() => {
            const request = { old: -1, size: -1, status: 0 };
            requests.push(request);
            if (req.method !== 'POST' || req.url !== '/add-checkpoint') request.status = answer(res, 404, 'not found\n');
            else {
              const text = Buffer.concat(chunks).toString();
              request.old = Number(/^old (\d+)/.exec(text)?.[1] ?? -1);
              request.status = addCheckpoint(text, res);
            }
          }, witness.delayMs);
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (server === null) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
      server = null;
    });

  await listen();
  const witness: TestWitness = {
    name,
    key: verifierKey,
    url: `http://127.0.0.1:${port}`,
    requests,
    size: () => latest.size,
    forget(size, root: Buffer = EMPTY_ROOT) {
      latest = { size, root };
    },
    delayMs: 0,
    clockOffsetSeconds: 0,
    down: stop,
    up: listen,
    close: stop,
  };
  t.teardown(stop);
  return witness;
}
