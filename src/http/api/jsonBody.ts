import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unsupported, validationError } from '../../domain/errors.js';
import type { JsonText } from '../../domain/jsonText.js';
import { type BodyReadElsewhere, decodeBody, parseBody } from './jsonBodyText.js';
import type { JsonShapeLimits } from './jsonShape.js';
import { createRepeatedBodies } from './repeatedBodies.js';

/** A JSON body's text as received (trimmed), for storing without re-serialising. */
interface RawJson {
  text: JsonText;
  /** Whether the request's body is the text's parse; false: its stand-in (bodyStandIn), the body read on a helper thread. */
  parsed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    rawJson: RawJson | null;
  }
}

/** Reads large bodies off the event loop: the engine's helper thread (src/runtime/helperThread.ts). */
export interface BodyReader {
  /** Bodies of at least this many bytes are read by `read`. */
  minBytes: number;
  read(body: Buffer, shape: JsonShapeLimits): Promise<BodyReadElsewhere>;
}

/** A Content-Encoding other than none or `identity`, lower-cased, or null. */
function contentEncodingOf(header: string | undefined): string | null {
  const encoding = header?.trim().toLowerCase() ?? '';
  return encoding === '' || encoding === 'identity' ? null : encoding;
}

const hasBody = (headers: { 'content-length'?: string; 'transfer-encoding'?: string }) =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'].trim() !== '0');

const unsupportedEncoding = (encoding: string) =>
  unsupported(`Content-Encoding "${encoding}" is not accepted; send the JSON uncompressed (bodies up to MAX_BODY_BYTES)`);

/** The charset parameter of a Content-Type, lower-cased, or null. */
function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase() ?? null;
}

/**
 * JSON is the only body type the API takes: every other content type gets 415. Bodies must be
 * UTF-8 and uncompressed (any Content-Encoding gets 415 before the body is read), and are bounded in depth and size before anything is stored. They are
 * parsed with JSON.parse; the check of their shape (a scan of the text, the parsed value walked
 * only when it finds a problem) also refuses the keys that poison prototypes (./jsonShape.ts), as
 * Fastify's secure parser would.
 * Their text is kept; a text that comes again is not parsed again (./repeatedBodies.ts). Bodies of
 * `reader.minBytes` and more are read on a helper thread (a 3.2 MB body of 290,000 keys parses in
 * ~130 ms, which the event loop would spend without answering anyone); read here if it fails.
 */
export function registerJsonBody(app: FastifyInstance, bodyLimit: number, shape: JsonShapeLimits, reader: BodyReader | null = null): { forgetBodies(): void } {
  app.removeAllContentTypeParsers();
  app.decorateRequest('rawJson', null);
  // Refused before a byte of the body is read, let alone inflated: a small gzip can hold gigabytes.
  app.addHook('onRequest', async (request) => {
    const encoding = contentEncodingOf(request.headers['content-encoding']);
    if (encoding !== null && hasBody(request.headers)) throw unsupportedEncoding(encoding);
  });
  // A few live matches at a time are sent again and again; ~2.3 bytes of heap per character kept (the text and its value).
  const repeated = createRepeatedBodies({ seenTexts: 1024, keptChars: 4 * 1024 * 1024 });

  function readHere(request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) {
    const decoded = decodeBody(body);
    if ('problem' in decoded) return done(validationError(decoded.problem));
    let value = repeated.get(decoded.trimmed);
    if (value === undefined) {
      const parsed = parseBody(decoded.text, shape);
      if ('problem' in parsed) return done(validationError(parsed.problem));
      value = parsed.value;
      repeated.parsed(decoded.trimmed, value);
    }
    request.rawJson = { text: decoded.trimmed, parsed: true };
    done(null, value);
  }

  app.addContentTypeParser(/^application\/([\w.-]+\+)?json\s*(;.*)?$/i, { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
      return done(unsupported(`charset "${charset}" is not accepted; send the JSON as UTF-8 (Content-Type: application/json; charset=utf-8)`));
    }
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (reader === null || bytes.length < reader.minBytes) return readHere(request, bytes, done);
    reader.read(bytes, shape).then(
      (read) => {
        if ('problem' in read) return done(validationError(read.problem));
        request.rawJson = { text: read.text, parsed: false };
        done(null, read.standIn);
      },
      () => readHere(request, bytes, done),
    );
  });
  return { forgetBodies: () => repeated.clear() };
}
