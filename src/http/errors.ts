import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError, type DomainErrorCode } from '../domain/errors.js';
import { AppendTooLargeError } from '../eventstore/port.js';

const statusOf: Record<DomainErrorCode, number> = {
  validation: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
};

export function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Turns "body/id must match pattern ..." style validation results into one readable sentence. */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = `${error.validationContext ?? 'request'}${first.instancePath.replace(/\//g, '.')}`;
  // Ajv runs verbose (src/http/validation.ts), so the failing schema and its description are at hand.
  const { parentSchema } = first as { parentSchema?: { description?: unknown } };
  const hint = typeof parentSchema?.description === 'string' ? ` (${parentSchema.description})` : '';
  return `${where} ${first.message ?? 'is invalid'}${hint}`;
}

/** Fastify's own errors whose default wording does not say what to fix. */
const fastifyMessages: Record<string, (error: FastifyError) => string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => 'the request body is larger than this server accepts (MAX_BODY_BYTES); send a smaller match payload',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => 'send the match as JSON with the header Content-Type: application/json',
  FST_ERR_CTP_EMPTY_JSON_BODY: () => 'the request body is empty; send the match as a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: (error) => `the request body is not valid JSON: ${error.message}`,
};

/** One error handler and one not-found handler for the whole app: every error body is JSON. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      const status = statusOf[error.code];
      return reply.code(status).send(errorBody(status, error.message));
    }
    if (error.validation) return reply.code(400).send(errorBody(400, validationMessage(error)));
    if (error instanceof AppendTooLargeError) {
      // Config keeps MAX_BODY_BYTES below the store's limit, so this means the server's limit is lower than configured.
      request.log.error({ err: error }, 'append refused by the event store as too large; check ESDB_MAX_APPEND_BYTES against the server');
      return reply.code(413).send(errorBody(413, 'the match is larger than the event store accepts; nothing was stored; send a smaller match payload'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send(errorBody(status, 'internal error; it has been logged'));
    }
    const friendly = error.code ? fastifyMessages[error.code] : undefined;
    return reply.code(status).send(errorBody(status, friendly ? friendly(error) : error.message));
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(404, `no route for ${request.method} ${request.url.split('?')[0] ?? ''}`)),
  );
}
