import type { AllSubscription, EventStore, Position, RecordedEvent } from '../src/eventstore/eventStore.js';
import { UnreadableEventError } from '../src/eventstore/eventStore.js';
import type { ReadModelStore } from '../src/readmodel/readModel.js';
import { type CommitDeps, type CommitMember, commitBatch } from './runnerCommit.js';
import type { Progress } from './runnerProgress.js';
import { type Batch, initialRunnerState, nextRunnerState, type RunnerEffect, type RunnerInput, subscribeAfter } from './runnerState.js';

/** One projection's progress, whichever group runs it. */
export interface GroupMember extends CommitMember {
  readonly progress: Progress;
  caughtUp: boolean;
}

/** What a pass needs from its runner; `subscribed` hands the runner the subscription so stopping closes it. */
export interface PassContext {
  readonly eventStore: EventStore;
  readonly readModel: ReadModelStore;
  readonly logger: { info(obj: object, msg: string): void };
  readonly deps: CommitDeps;
  readonly batchSize: number;
  readonly checkpointWatchMs: number;
  /** Runs `commit` (one batch over `events`), watched by the runner's observer if it has one. */
  observe(events: readonly RecordedEvent[], commit: () => Promise<void>): Promise<void>;
  stopped(): boolean;
  subscribed(subscription: AllSubscription): void;
}

/**
 * One pass of a group (./runnerState.ts's state machine driven over a real subscription): from
 * the stored checkpoints until the subscription ends (stopped, or a checkpoint another process
 * moved) or fails, which it throws.
 */
export async function runPass(group: readonly GroupMember[], context: PassContext): Promise<void> {
  const { readModel, logger } = context;
  const stored = new Map<string, Position | null>();
  for (const member of group) {
    const checkpoint = await readModel.getCheckpoint(member.projection.name);
    stored.set(member.projection.name, checkpoint);
    member.progress.restart(checkpoint);
    logger.info({ projection: member.projection.name, checkpoint }, 'projection running from its stored checkpoint');
  }
  const byName = new Map(group.map((member) => [member.projection.name, member]));
  let state = initialRunnerState(stored);
  const subscription = context.eventStore.subscribeToAll({ after: subscribeAfter(state), batchSize: context.batchSize });
  context.subscribed(subscription);

  async function perform(effect: RunnerEffect) {
    switch (effect.type) {
      case 'apply':
        return context.observe(effect.batch.events, () => commit(effect.batch));
      case 'reached':
        for (const name of effect.projections) byName.get(name)?.progress.reach(effect.position);
        return;
      case 'caughtUp':
        for (const member of group) {
          member.caughtUp = true;
          member.progress.reach(effect.position);
        }
        return;
      case 'fellBehind':
        for (const member of group) member.caughtUp = false;
        return;
      case 'readCheckpoints':
        return feed({ type: 'checkpointsRead', checkpoints: await readCheckpoints(readModel, effect.projections) });
      case 'checkpointMoved':
        logger.info({ projection: effect.projection, checkpoint: effect.checkpoint }, 'checkpoint moved; resuming from it');
        clearInterval(watch);
        await subscription.close();
    }
  }
  async function feed(input: RunnerInput) {
    const next = nextRunnerState(state, input);
    state = next.state;
    for (const effect of next.effects) await perform(effect);
  }
  async function commit(batch: Batch) {
    await commitBatch(batch, byName, context.deps);
    await feed({ type: 'committed', batch });
  }

  // Between batches the group looks at what is stored (./runnerState.ts, `watched`, says why).
  const watch = setInterval(() => {
    // A close that fails here leaves the pass to end by its own error.
    feed({ type: 'watchTick' }).catch(() => {});
  }, context.checkpointWatchMs);
  try {
    for await (const item of subscription) {
      if (context.stopped()) break;
      await feed(item.kind === 'caughtUp' ? { type: 'caughtUp', position: item.position } : { type: 'delivered', events: item.events });
    }
  } catch (error) {
    if (error instanceof UnreadableEventError) await feed({ type: 'unreadable', streamId: error.streamId });
    throw error;
  } finally {
    clearInterval(watch);
    await feed({ type: 'passEnded' });
  }
}

/** The stored checkpoints of `projections`; one whose read fails is left out (no news: the next commit, or the next look, tells). */
async function readCheckpoints(readModel: ReadModelStore, projections: readonly string[]): Promise<Map<string, Position | null>> {
  const read = new Map<string, Position | null>();
  for (const name of projections) {
    try {
      read.set(name, await readModel.getCheckpoint(name));
    } catch {
      // Left out.
    }
  }
  return read;
}
