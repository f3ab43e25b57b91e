import type { FastifyInstance } from 'fastify';
import { unsupported, validationError } from '../../domain/errors.js';
import { asJsonText, type JsonText } from '../../domain/jsonText.js';
import { type JsonShapeLimits, jsonShapeProblem, jsonTextFits } from './jsonShape.js';
import { createRepeatedBodies } from './repeatedBodies.js';

/** A JSON body's text as received (trimmed), for storing without re-serialising. */
interface RawJson {
  text: JsonText;
}

declare module 'fastify' {
  interface FastifyRequest {
    rawJson: RawJson | null;
  }
}

/** Bodies above this many characters have their shape checked by a scan of the text before any walk. */
const SCAN_FIRST_CHARS = 256 * 1024;

/** Fatal on bytes that are not UTF-8; a leading byte order mark is dropped. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

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
 * Their text is kept; a text that comes again is not parsed again (./repeatedBodies.ts).
 */
export function registerJsonBody(app: FastifyInstance, bodyLimit: number, shape: JsonShapeLimits) {
  app.removeAllContentTypeParsers();
  app.decorateRequest('rawJson', null);
  // Refused before a byte of the body is read, let alone inflated: a small gzip can hold gigabytes.
  app.addHook('onRequest', async (request) => {
    const encoding = contentEncodingOf(request.headers['content-encoding']);
    if (encoding !== null && hasBody(request.headers)) throw unsupportedEncoding(encoding);
  });
  // A few live matches at a time are sent again and again; ~2.3 bytes of heap per character kept (the text and its value).
  const repeated = createRepeatedBodies({ seenTexts: 1024, keptChars: 4 * 1024 * 1024 });
  app.addContentTypeParser(/^application\/([\w.-]+\+)?json\s*(;.*)?$/i, { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
      return done(unsupported(`charset "${charset}" is not accepted; send the JSON as UTF-8 (Content-Type: application/json; charset=utf-8)`));
    }
    let text: string;
    try {
      text = utf8.decode(typeof body === 'string' ? Buffer.from(body) : body);
    } catch {
      return done(validationError('the request body is not valid UTF-8; send the JSON encoded as UTF-8'));
    }
    if (text.length === 0) return done(validationError('the request body is empty; send the match as a JSON object'));
    const trimmed = asJsonText(text.trim());
    let value = repeated.get(trimmed);
    if (value === undefined) {
      try {
        value = JSON.parse(text);
      } catch (error) {
        return done(validationError(`the request body is not valid JSON: ${(error as Error).message}`));
      }
      // A large text is scanned first, and its value walked only for the exact refusal: walking
      // an object of 290,000 keys takes ~200 ms. An 85 KB match walks in ~0.07 ms, 7× its scan.
      const problem = text.length > SCAN_FIRST_CHARS && jsonTextFits(text, shape) ? null : jsonShapeProblem(value, shape);
      if (problem !== null) return done(validationError(problem));
      repeated.parsed(trimmed, value);
    }
    request.rawJson = { text: trimmed };
    done(null, value);
  });
}
