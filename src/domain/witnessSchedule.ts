/**
 * What the log knows of one witness and when it next sends it a checkpoint: a pure state
 * machine, so the submitter's I/O (src/history/witnessSubmitter.ts) holds no decision.
 */
export interface WitnessState {
  /** The witness's latest size of this log as it last told us (0: it never saw it, as C2SP says). */
  knownSize: number;
  /** The checkpoint it cosigned last: its size and base64 root. */
  cosigned: { size: number; root: string } | null;
  /** Failures in a row (unreachable, timed out, refused). */
  failures: number;
  /** No request before this time (ms since the epoch). */
  retryAt: number;
}

export type WitnessOutcome = { kind: 'cosigned'; size: number; root: string } | { kind: 'conflict'; size: number } | { kind: 'failed' };

/** First retry after a failure, and the longest wait between tries. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;

export const initialWitnessState = (knownSize = 0): WitnessState => ({ knownSize, cosigned: null, failures: 0, retryAt: 0 });

export function afterOutcome(state: WitnessState, outcome: WitnessOutcome, now: number): WitnessState {
  switch (outcome.kind) {
    case 'cosigned':
      return { knownSize: outcome.size, cosigned: { size: outcome.size, root: outcome.root }, failures: 0, retryAt: 0 };
    case 'conflict':
      return { ...state, knownSize: outcome.size };
    case 'failed': {
      const failures = state.failures + 1;
      return { ...state, failures, retryAt: now + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failures - 1)) };
    }
  }
}

/**
 * Whether the witness should be sent the tree head now: it has not cosigned this one, is not
 * backing off, and has not seen a larger tree (no proof goes from a larger tree to a smaller).
 */
export const isDue = (state: WitnessState, head: { size: number; root: string }, now: number) =>
  now >= state.retryAt && state.knownSize <= head.size && !(state.cosigned?.size === head.size && state.cosigned.root === head.root);

/** Whether the witness answers as far as the log knows (no failure since its last answer). */
export const isAnswering = (state: WitnessState) => state.failures === 0;
