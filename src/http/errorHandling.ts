import { STATUS_CODES } from 'node:http';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Router from 'find-my-way';
import { DomainError, type DomainErrorCode, storageFull } from '../domain/errors.js';
import { AppendOutcomeUnknownError, AppendTooLargeError } from '../eventstore/eventStore.js';
import { isStorageFull } from '../platform/storageFailure.js';
import { PAGE_CSP } from './views/layout.js';
import { isRecord } from '../platform/isRecord.js';

/** The one status each domain error code maps to. */
export const statusOf: Record<DomainErrorCode, number> = {
  validation: 400,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  conflict: 409,
  unsupported: 415,
  too_many_requests: 429,
  unavailable: 503,
  storage_full: 507,
};

/** The JSON body of every error answer. */
export function errorBody(statusCode: number, message: string) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/**
 * Every error answer says its type is not to be guessed, whichever hook answered it: some answer
 * before the security headers' hook has run (an unknown route, load shedding).
 */
export const NO_SNIFF = { 'x-content-type-options': 'nosniff' };

interface FailedSchema {
  description?: unknown;
  type?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  const?: unknown;
  anyOf?: { const?: unknown; type?: unknown }[];
}

/** What a value must be, in words: the whole numbers or the choices a schema allows, else Ajv's own words. */
function ruleOf(keyword: string, schema: FailedSchema | undefined, ajvMessage: string | undefined): string {
  const choices = schema?.anyOf?.every((branch) => branch.const !== undefined) ? schema.anyOf.map((branch) => String(branch.const)) : null;
  if (keyword === 'anyOf' && choices !== null) return `must be one of ${choices.join(', ')}`;
  const types = schema?.anyOf?.every((branch) => typeof branch.type === 'string') ? schema.anyOf.map((branch) => String(branch.type)) : null;
  if (keyword === 'anyOf' && types !== null) return `must be ${types.slice(0, -1).join(', ')}${types.length > 1 ? ' or ' : ''}${types.at(-1)}`;
  if (keyword === 'const' && schema?.const !== undefined) return `must be ${String(schema.const)}`;
  if (schema?.type === 'integer' && ['type', 'minimum', 'maximum'].includes(keyword) && typeof schema.minimum === 'number') {
    return typeof schema.maximum === 'number'
      ? `must be a whole number from ${schema.minimum} to ${schema.maximum}`
      : `must be a whole number of at least ${schema.minimum}`;
  }
  return ajvMessage ?? 'is invalid';
}

/** Turns "body/id must match pattern ..." style validation results into one readable sentence. */
function validationMessage(error: FastifyError): string {
  // A value none of a union's branches takes: the union's own error (the last) says more than its first branch's.
  const first = error.validation?.find((failed) => failed.keyword === 'anyOf') ?? error.validation?.[0];
  if (!first) return error.message;
  const where = `${error.validationContext ?? 'request'}${first.instancePath.replace(/\//g, '.')}`;
  // Ajv runs verbose (src/http/api/validation.ts), so the failing schema and its description are at hand.
  const { parentSchema } = first as { parentSchema?: FailedSchema };
  const hint = typeof parentSchema?.description === 'string' ? ` (${parentSchema.description})` : '';
  return `${where} ${ruleOf(first.keyword, parentSchema, first.message)}${hint}`;
}

/** Fastify's (and its plugins') own errors whose default wording does not say what to fix, by error code. */
const fastifyMessages: Record<string, { message: (error: FastifyError) => string; title?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { message: () => 'the request body is larger than this server accepts (MAX_BODY_BYTES); send a smaller match payload' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { message: () => 'send the match as JSON with the header Content-Type: application/json' },
  FST_ERR_BAD_URL: { message: () => 'the address is not valid: a % in it must be followed by two hexadecimal digits; fix the link' },
  FST_ERR_MAX_PARAM_LENGTH: { message: () => 'a part of the address is longer than this server accepts (a match id is at most 128 characters); fix the link' },
  FST_CSRF_INVALID_TOKEN: {
    title: 'Form expired',
    message: () => 'This form has expired or did not come from this site. Go back, reload the page and try again.',
  },
  FST_CSRF_MISSING_SECRET: {
    title: 'Form expired',
    message: () => 'This form has expired or did not come from this site. Go back, reload the page and try again.',
  },
};

/** What the client is told about a failed request: the same status, headers and message as JSON or as a page. */
export interface ErrorAnswer {
  statusCode: number;
  message: string;
  /** A short heading, for pages. */
  title: string;
  headers: Record<string, string>;
}

const answer = (statusCode: number, message: string, headers: Record<string, string> = {}, title?: string): ErrorAnswer => ({
  statusCode,
  message,
  headers,
  title:
    title ??
    (statusCode === 503 ? 'Busy right now' : statusCode >= 500 ? 'Something went wrong' : statusCode === 429 ? 'Too many attempts' : 'That did not work'),
});

/** The one mapping from an error to its answer, shared by the JSON and the HTML error handlers; logs what the operator must see. */
export function errorAnswer(error: FastifyError, request: FastifyRequest): ErrorAnswer {
  // A store's own full-disk error is storage_full too (the stores raise storage_full on their writes).
  const domain = error instanceof DomainError ? error : isStorageFull(error) ? storageFull('full', error) : null;
  if (domain !== null) {
    if (domain.code === 'storage_full')
      request.log.error({ err: domain.cause ?? domain }, 'storage refused a write: writes are refused until space is freed or DATA_DIR is writable again');
    return answer(statusOf[domain.code], domain.message, domain.retryAfter === undefined ? {} : { 'retry-after': String(domain.retryAfter) });
  }
  if (error.validation) return answer(400, validationMessage(error));
  if (error instanceof AppendTooLargeError) {
    // Config keeps MAX_BODY_BYTES below the store's limit, so this means the server's limit is lower than configured.
    request.log.error({ err: error }, 'append refused by the event store as too large; check ESDB_MAX_APPEND_BYTES against the server');
    return answer(413, 'the match is larger than the event store accepts; nothing was stored; send a smaller match payload');
  }
  if (error instanceof AppendOutcomeUnknownError) {
    request.log.error({ err: error }, 'the event store did not answer an append: its outcome is unknown');
    return answer(
      503,
      'outcome unknown: the event store did not confirm the write, so it may or may not be stored; ' +
        'send the same request again (a repeat of a stored upload is recognised and stores nothing twice)',
      { 'retry-after': '1' },
    );
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return answer(status, 'internal error; it has been logged');
  }
  const friendly = error.code ? fastifyMessages[error.code] : undefined;
  return answer(status, friendly ? friendly.message(error) : error.message, {}, friendly?.title);
}

/** The error page of one audience of pages (the match pages, the dashboard): what a browser gets for a failed request under `prefix`. */
export interface ErrorPages {
  prefix: string;
  render: (answer: ErrorAnswer) => string;
}

/** The heading of the page a browser gets for an address no route has. */
export const NO_SUCH_PAGE = 'Page not found';

const formats = new Negotiator({ supportedValues: ['application/json', 'text/html'] });

/** The error page for a request under a page prefix that prefers HTML to JSON (a browser); null for API clients and everything else. */
function errorPageFor(request: FastifyRequest, pages: readonly ErrorPages[]): ErrorPages['render'] | null {
  const accept = request.headers.accept;
  if (accept === undefined || pages.length === 0) return null;
  const path = request.url.split('?')[0] ?? '';
  const found = pages.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
  return found !== undefined && formats.negotiate(accept) === 'text/html' ? found.render : null;
}

/** Sends an answer as JSON, or as the page `page` renders; `csp` for pages answered outside the plugin that set theirs. */
function send(reply: FastifyReply, answered: ErrorAnswer, page: ErrorPages['render'] | null, csp?: string) {
  reply.code(answered.statusCode).headers({ ...NO_SNIFF, ...answered.headers });
  if (page === null) return reply.send(errorBody(answered.statusCode, answered.message));
  if (csp !== undefined) reply.header('content-security-policy', csp);
  return reply.type('text/html; charset=utf-8').send(page(answered));
}

/** An error handler for a plugin whose routes answer with pages: the answer of `errorAnswer`, rendered by `page`. */
export function pageErrorHandler(page: (answer: ErrorAnswer) => string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => send(reply, errorAnswer(error, request), page);
}

/**
 * A form that shows the domain's refusal on the form itself (keeping what was typed): the
 * status and message of a DomainError with one of `codes`; any other error is rethrown.
 */
export function formRefusal(error: unknown, codes: readonly DomainErrorCode[]): { statusCode: number; message: string } {
  if (error instanceof DomainError && codes.includes(error.code)) return { statusCode: statusOf[error.code], message: error.message };
  throw error;
}

/**
 * Fastify's `frameworkErrors`: an address it cannot route (bad percent-encoding, a too long
 * part) gets the same answer as any other error, before any hook has run.
 */
export function frameworkErrorHandler(pages: readonly ErrorPages[] = []) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', request.id);
    return send(reply, errorAnswer(error, request), errorPageFor(request, pages), PAGE_CSP);
  };
}

/**
 * One error handler and one not-found handler for the whole app: JSON bodies, or, for a
 * browser asking for an address under one of `pages`' prefixes, that audience's error page
 * with the same status, headers and message. Page plugins render the same answer with `pageErrorHandler`.
 */
export function registerErrorHandling(app: FastifyInstance, pages: readonly ErrorPages[] = []) {
  app.setErrorHandler((error: FastifyError, request, reply) => send(reply, errorAnswer(error, request), errorPageFor(request, pages), PAGE_CSP));

  // The methods of every route path, to tell "no such resource" (404) from "not that method" (405).
  const paths = Router();
  const methodsOf = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    // The CORS preflight catch-all (OPTIONS *) answers browsers, not "which methods does this path have".
    if (route.url === '*') return;
    let methods = methodsOf.get(route.url);
    if (!methods) {
      methods = new Set();
      methodsOf.set(route.url, methods);
      paths.on('GET', route.url, () => {}, { url: route.url });
    }
    for (const method of [route.method].flat()) methods.add(method.toUpperCase());
  });
  const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

  function notFound(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? '';
    const store: unknown = paths.find('GET', path)?.store;
    const url = isRecord(store) && typeof store.url === 'string' ? store.url : undefined;
    const allowed = ORDER.filter((method) => url !== undefined && methodsOf.get(url)?.has(method));
    const answered =
      allowed.length > 0
        ? answer(405, `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`, { allow: allowed.join(', ') })
        : answer(404, `no route for ${request.method} ${path}`, {}, NO_SUCH_PAGE);
    return send(reply, answered, errorPageFor(request, pages), PAGE_CSP);
  }

  // Answer before any body is read: an unrouted request's body is never parsed.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return notFound(request, reply);
  });
  app.setNotFoundHandler(notFound);
}
