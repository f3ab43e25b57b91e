import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** What a handler adds to the request's access line (see noteInAccessLog). */
    accessLogNotes: Record<string, unknown> | null;
  }
}

/**
 * One access line per request (Fastify's "request completed", with the method and URL), not
 * two; what a handler found worth telling (a club sync's outcome, a repeated upload) goes on
 * that line rather than on a line of its own.
 */
export class AccessLogOnly extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime, ...request.accessLogNotes };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

export function registerAccessLogNotes(app: FastifyInstance) {
  app.decorateRequest('accessLogNotes', null);
}

/** Adds these fields to the request's access line. */
export function noteInAccessLog(request: Pick<FastifyRequest, 'accessLogNotes'>, notes: Record<string, unknown>) {
  request.accessLogNotes = { ...request.accessLogNotes, ...notes };
}
