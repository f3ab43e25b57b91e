import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ProjectionStatus } from '../../projections/runner.js';
import { answersUnderPressure } from './shedding.js';

const ProjectionHealth = Type.Object({
  name: Type.String(),
  checkpoint: Type.Union([Type.Integer(), Type.Null()]),
  lag: Type.Integer({ description: 'How far the checkpoint is behind the newest event: in events (SQLite) or bytes of log (EventStoreDB).' }),
  caughtUp: Type.Boolean(),
  failure: Type.Union([Type.Object({ position: Type.Integer(), streamId: Type.String(), message: Type.String() }), Type.Null()]),
});
const Readiness = Type.Object({
  status: Type.String(),
  reason: Type.Optional(Type.String({ description: 'Why the instance is not ready, in a sentence.' })),
  projections: Type.Array(ProjectionHealth),
});

/** Readiness threshold for lag: about a thousand matches, in the event store's position unit. */
export const maxReadyLag = (positionUnit: 'event' | 'byte') => (positionUnit === 'byte' ? 64 * 1024 * 1024 : 1000);

export interface HealthDeps {
  /** Where the projections' progress comes from (the runtime's engine). */
  engine: { projectionStatus(): Promise<(ProjectionStatus & { lag: number })[]> };
  isShuttingDown: () => boolean;
  /** More unapplied events than this and the instance reports itself not ready. */
  maxLag: number;
  /** Whether projections run in this process (default); if not, workers must (RUN_PROJECTIONS). */
  projectionsInProcess?: boolean;
  /** Unapplied events with no checkpoint moving for this long: no projection is making progress. */
  stallMs?: number;
  /** Why the transparency log's tree is behind the largest tree its key signed (null: it is not); none: not checked. */
  logTreeBehind?: () => Promise<string | null>;
  now?: () => number;
}

/** Liveness says the process answers; readiness says it can serve reads that are up to date. */
export const health: FastifyPluginAsyncTypebox<HealthDeps> = async (
  app,
  { engine, isShuttingDown, maxLag, projectionsInProcess = true, stallMs = 30_000, logTreeBehind = async () => null, now = Date.now },
) => {
  // Since when the checkpoints have stood still while events waited (null: moving or nothing to do).
  let last: { checkpoints: string; stillSince: number | null } = { checkpoints: '', stillSince: null };

  app.get(
    '/healthz',
    {
      config: answersUnderPressure,
      schema: { tags: ['operations'], operationId: 'getHealth', summary: 'Liveness', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
    },
    async () => ({
      status: 'ok' as const,
    }),
  );

  app.get(
    '/readyz',
    {
      // An orchestrator asks whether to send traffic most while the process is busiest (catching up at start).
      config: answersUnderPressure,
      schema: { tags: ['operations'], operationId: 'getReadiness', summary: 'Readiness, with projection lag', response: { 200: Readiness, 503: Readiness } },
    },
    async (_request, reply) => {
      const projections = await engine.projectionStatus();
      const checkpoints = projections.map((p) => String(p.checkpoint)).join(',');
      const waiting = projections.some((p) => p.lag > 0);
      const stillSince = !waiting ? null : checkpoints === last.checkpoints ? (last.stillSince ?? now()) : now();
      last = { checkpoints, stillSince };
      const failing = projections.find((p) => p.failure !== null);
      const stalled = stillSince !== null && now() - stillSince >= stallMs;
      const treeBehind = await logTreeBehind();
      const [status, reason] = isShuttingDown()
        ? ['shutting down', 'the process is shutting down']
        : failing
          ? ['projection failing', `projection ${failing.name} is failing at position ${failing.failure?.position}: ${failing.failure?.message}`]
          : stalled
            ? [
                'not progressing',
                projectionsInProcess
                  ? `no projection has made progress for ${stallMs / 1000} s while events wait`
                  : `no projection has made progress for ${stallMs / 1000} s while events wait; ` +
                    'this API runs none itself (RUN_PROJECTIONS): is a projection worker (matchlog projections) running?',
              ]
            : projections.some((p) => p.lag > maxLag)
              ? ['catching up', `projections are more than ${maxLag} behind the log`]
              : treeBehind !== null
                ? ['catching up', treeBehind]
                : [null, null];
      return reply.code(status ? 503 : 200).send({ status: status ?? 'ready', ...(reason ? { reason } : {}), projections });
    },
  );
};
