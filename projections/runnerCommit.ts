import type { DecodedPayloads } from '../src/domain/decodedPayloads.js';
import type { EventStore, Position } from '../src/eventstore/eventStore.js';
import { CheckpointMovedError, type ProjectionCommit, type ReadModelStore } from '../src/readmodel/readModel.js';
import type { OffLoopWork, Projection } from './projection.js';
import type { ProjectionMemory } from './projectionMemory.js';
import type { Batch } from './runnerState.js';
import { applyBatch } from './unitOfWork.js';
import { nextTurn } from '../src/platform/nextTurn.js';

/** Where a projection stopped, shown in its status (and /readyz) while the runner retries. */
export interface Failure {
  position: Position;
  streamId: string;
  message: string;
}

/** A projection of a group, as a commit sees it: what it applies, and where its last failure is told. */
export interface CommitMember {
  readonly projection: Projection;
  failure: Failure | null;
}

/** A projection of a group threw: the group goes on without it, and it runs (and retries) alone. */
export class MemberFailed<M extends CommitMember = CommitMember> extends Error {
  constructor(
    readonly member: M,
    readonly error: unknown,
  ) {
    super(`projection ${member.projection.name} failed: ${String(error)}`);
  }
}

/**
 * A projection's share that took this long lets the event loop turn before the next one is
 * applied: with the read models in SQLite every await of a batch resolves at once, so a batch
 * is otherwise one stretch of the event loop, however many projections a wide payload costs.
 * A share shorter than this (every share of a 100 KB match) goes on without a turn.
 */
const TURN_AFTER_MS = 10;

export interface CommitDeps {
  readModel: ReadModelStore;
  eventStore: EventStore;
  payloads: DecodedPayloads;
  /** Where projections may have work done off the event loop (the engine's helper thread). */
  offLoop: OffLoopWork | null;
  /** What the runner's projections keep between batches (its own: never a rebuild's). */
  memory: ProjectionMemory;
}

/**
 * Applies a batch to each projection of its shares (a long share lets the event loop turn before
 * the next: TURN_AFTER_MS) and commits all their documents and checkpoints in one read-model
 * commit (each expecting the checkpoint its share names); then
 * lets go of the batch's parsed payloads. When a projection throws, a group of several rejects
 * with MemberFailed naming it, a group of one with the error itself; nothing is committed.
 * A failed commit is shown on every projection of it, except a moved checkpoint (not a failure).
 */
export async function commitBatch<M extends CommitMember>(
  batch: Batch,
  members: ReadonlyMap<string, M>,
  { readModel, eventStore, payloads, offLoop, memory }: CommitDeps,
): Promise<void> {
  const { last } = batch;
  const commits: ProjectionCommit[] = [];
  const committing: M[] = [];
  for (const share of batch.shares) {
    const member = members.get(share.projection);
    if (member === undefined) throw new Error(`unreachable: projection ${share.projection} is not of this group`);
    const onFailure = (event: { position: Position; streamId: string }, error: unknown) => {
      member.failure = { position: event.position, streamId: event.streamId, message: String(error) };
    };
    const started = performance.now();
    const changes = await applyBatch(member.projection, readModel.forUpdates, [...share.events], onFailure, eventStore, payloads, offLoop, memory).catch(
      (error: unknown) => {
        throw members.size > 1 ? new MemberFailed(member, error) : error;
      },
    );
    if (performance.now() - started >= TURN_AFTER_MS) await nextTurn();
    commits.push({ projection: share.projection, changes, checkpoint: last.position, expected: share.expected });
    committing.push(member);
  }
  try {
    await readModel.commitAll(commits);
  } catch (error) {
    // Shown in status (and /readyz) like an apply error: a full disk must not look ready.
    if (!(error instanceof CheckpointMovedError)) {
      for (const member of committing) member.failure = { position: last.position, streamId: last.streamId, message: `commit failed: ${String(error)}` };
    }
    throw error;
  }
  for (const member of committing) member.failure = null;
  payloads.forget(batch.events.map((event) => event.id));
}
