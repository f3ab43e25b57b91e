import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Engine } from '../engine.js';
import { answersUnderPressure } from './shedding.js';

const ProjectionHealth = Type.Object({
  name: Type.String(),
  checkpoint: Type.Union([Type.Integer(), Type.Null()]),
  lag: Type.Integer({ description: 'How far the checkpoint is behind the newest event: in events (SQLite) or bytes of log (EventStoreDB).' }),
  caughtUp: Type.Boolean(),
  failure: Type.Union([Type.Object({ position: Type.Integer(), streamId: Type.String(), message: Type.String() }), Type.Null()]),
});
const Readiness = Type.Object({ status: Type.String(), projections: Type.Array(ProjectionHealth) });

/** Readiness threshold for lag: about a thousand matches, in the event store's position unit. */
export const maxReadyLag = (positionUnit: 'event' | 'byte') => (positionUnit === 'byte' ? 64 * 1024 * 1024 : 1000);

export interface HealthDeps {
  engine: Pick<Engine, 'projectionStatus'>;
  isShuttingDown: () => boolean;
  /** More unapplied events than this and the instance reports itself not ready. */
  maxLag: number;
}

/** Liveness says the process answers; readiness says it can serve reads that are up to date. */
export const health: FastifyPluginAsyncTypebox<HealthDeps> = async (app, { engine, isShuttingDown, maxLag }) => {
  app.get('/healthz', { config: answersUnderPressure, schema: { tags: ['operations'], summary: 'Liveness', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/readyz',
    { schema: { tags: ['operations'], summary: 'Readiness, with projection lag', response: { 200: Readiness, 503: Readiness } } },
    async (_request, reply) => {
      const projections = await engine.projectionStatus();
      const problem = isShuttingDown()
        ? 'shutting down'
        : projections.some((p) => p.failure !== null)
          ? 'projection failing'
          : projections.some((p) => p.lag > maxLag)
            ? 'catching up'
            : null;
      return reply.code(problem ? 503 : 200).send({ status: problem ?? 'ready', projections });
    },
  );
};
