import { type CosignatureVerifier, verifyCosignatureLine } from '../domain/cosignature.js';
import { afterOutcome, initialWitnessState, isAnswering, isDue, type WitnessOutcome, type WitnessState } from '../domain/witnessSchedule.js';
import type { CosignedCheckpoints } from './cosignedCheckpoints.js';
import type { TreeHead } from './logProofs.js';
import { postAddCheckpoint } from './witnessClient.js';
import { wakeableSleep } from '../platform/wakeableSleep.js';

export interface Witness {
  name: string;
  /** The submission prefix: requests go to `<url>/add-checkpoint`. */
  url: string;
  verifier: CosignatureVerifier;
}

export interface WitnessSubmitterDeps {
  witnesses: readonly Witness[];
  quorum: number;
  readHead: () => Promise<TreeHead>;
  /** The log's signed note of a tree head; null while it must not sign it (the tree is behind one it signed). */
  sign: (head: TreeHead) => string | null;
  consistencyProof: (from: number, to: number) => Promise<Buffer[]>;
  cosigned: CosignedCheckpoints;
  log: { warn(fields: object, message: string): void };
  /** A request to a witness is cut off after this. */
  timeoutMs: number;
  /** The tree head is read at least this often (heads other processes commit). */
  pollMs: number;
  now?: () => number;
}

/** Resends after 409s in one round: the witness tells its size, the next request carries the proof from it. */
const CONFLICT_RETRIES = 2;

/**
 * Submits the log's checkpoints to its witnesses (C2SP tlog-witness) in rounds: a round sends
 * the newest tree head to every witness that has not cosigned it and is not backing off, one
 * request per witness, and ends when they have all answered or timed out; the next round takes
 * the newest head then, so a busy log sends at most one request per witness at a time and the
 * latest checkpoint wins. Writes never wait on it: a witness that is down only delays cosigning.
 */
export function createWitnessSubmitter(deps: WitnessSubmitterDeps) {
  const { witnesses, cosigned, log, now = Date.now } = deps;
  const states = new Map<string, WitnessState>(witnesses.map((witness) => [witness.name, initialWitnessState()]));
  let closed = false;
  const closing = new AbortController();
  const pause = wakeableSleep();
  let moved = false;

  /** Sleeps until the head moves, `ms` pass, or the submitter closes. */
  const sleep = (ms: number): Promise<void> => (moved || closed ? Promise.resolve() : pause.sleep(ms));

  async function submitTo(witness: Witness, head: TreeHead, note: string): Promise<void> {
    const body = note.slice(0, note.indexOf('\n\n') + 1);
    const root = head.rootHash.toString('base64');
    const update = (outcome: WitnessOutcome) => states.set(witness.name, afterOutcome(states.get(witness.name)!, outcome, now()));
    for (let attempt = 0; attempt <= CONFLICT_RETRIES; attempt += 1) {
      const { knownSize } = states.get(witness.name)!;
      if (knownSize > head.size) return;
      const proof = await deps.consistencyProof(knownSize, head.size);
      if (closed) return;
      const reply = await postAddCheckpoint(
        witness.url,
        { oldSize: knownSize, consistencyProof: proof, signedCheckpoint: note },
        deps.timeoutMs,
        closing.signal,
      );
      if (closed) return;
      if (reply.kind === 'conflict') {
        update({ kind: 'conflict', size: reply.size });
        if (reply.size > head.size)
          log.warn({ witness: witness.name, witnessSize: reply.size, size: head.size }, 'witness: it has seen a larger tree of this log');
        continue;
      }
      if (reply.kind === 'cosigned') {
        const line = reply.lines.find((candidate) => verifyCosignatureLine(candidate, witness.verifier, body) !== null);
        if (line !== undefined) {
          update({ kind: 'cosigned', size: head.size, root });
          cosigned.add(head, note, witness.name, line);
          return;
        }
        log.warn({ witness: witness.name, size: head.size }, 'witness: no line of its answer is a cosignature by its configured key');
      } else if (reply.kind === 'refused') {
        log.warn({ witness: witness.name, status: reply.status, size: head.size, answer: reply.message }, 'witness: refused the checkpoint');
      } else {
        log.warn({ witness: witness.name, size: head.size, error: reply.message }, 'witness: unreachable');
      }
      update({ kind: 'failed' });
      // Writes waiting for the quorum's cosignatures go on without them.
      if (!quorumAnswering()) cosigned.release();
      return;
    }
  }

  const quorumAnswering = () => [...states.values()].filter(isAnswering).length >= deps.quorum;

  async function round(): Promise<number> {
    moved = false;
    const head = await deps.readHead();
    const root = head.rootHash.toString('base64');
    const at = now();
    const due = witnesses.filter((witness) => isDue(states.get(witness.name)!, { size: head.size, root }, at));
    const note = due.length > 0 ? deps.sign(head) : null;
    if (note !== null) {
      await Promise.all(due.map((witness) => submitTo(witness, head, note)));
      return 0;
    }
    const retries = [...states.values()].map((state) => state.retryAt - at).filter((ms) => ms > 0);
    return Math.min(deps.pollMs, ...retries);
  }

  const running = (async () => {
    while (!closed) {
      let pause: number;
      try {
        pause = await round();
      } catch (error) {
        log.warn({ err: error }, 'witness: a round failed (reading the tree head or its proof)');
        pause = deps.pollMs;
      }
      if (pause > 0) await sleep(pause);
    }
  })();

  return {
    /** The tree head moved (a commit of this process): a round starts as soon as none runs. */
    headMoved() {
      moved = true;
      pause.wake();
    },

    /** Whether as many witnesses as the quorum answered their last request: a write then waits for their cosignatures. */
    quorumAnswering,

    async close() {
      closed = true;
      closing.abort();
      pause.wake();
      cosigned.release();
      await running;
    },
  };
}
