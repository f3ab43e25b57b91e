import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unsupported, validationError } from '../../domain/errors.js';
import type { JsonText } from '../../domain/jsonText.js';
import { type BodyReadElsewhere, decodeBody, parseBody } from './jsonBodyText.js';
import type { JsonShapeLimits } from './jsonShape.js';
import { createRepeatedBodies } from './repeatedBodies.js';
import { type ReparseBasis, reparse } from '../../domain/jsonReparse.js';
import { isSpace } from '../../domain/jsonScan.js';
import { createLiveBases, uploadKey } from './liveBases.js';
import { noteInAccessLog } from '../accessLog.js';

/** A JSON body's text as received (trimmed), for storing without re-serialising. */
interface RawJson {
  text: JsonText;
  /** Whether the request's body is the text's parse; false: its stand-in (bodyStandIn), the body read on a helper thread. */
  parsed: boolean;
}

/** What an upload leaves for the next upload of its match to be parsed against, once it is accepted. */
interface LiveBasisNote {
  key: string;
  text: string;
  value: unknown;
  /** The value's index, when the parse was incremental (src/domain/jsonReparse.ts). */
  basis: ReparseBasis | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    rawJson: RawJson | null;
    liveBasis: LiveBasisNote | null;
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
export function registerJsonBody(
  app: FastifyInstance,
  bodyLimit: number,
  shape: JsonShapeLimits,
  reader: BodyReader | null = null,
  liveParseBytes = 0,
): { forgetBodies(): void } {
  app.removeAllContentTypeParsers();
  app.decorateRequest('rawJson', null);
  app.decorateRequest('liveBasis', null);
  // Refused before a byte of the body is read, let alone inflated: a small gzip can hold gigabytes.
  app.addHook('onRequest', async (request) => {
    const encoding = contentEncodingOf(request.headers['content-encoding']);
    if (encoding !== null && hasBody(request.headers)) throw unsupportedEncoding(encoding);
  });
  // A few live matches at a time are sent again and again; ~2.3 bytes of heap per character kept (the text and its value).
  const repeated = createRepeatedBodies({ seenTexts: 1024, keptChars: 4 * 1024 * 1024 });
  // A live match's next upload is parsed against its last accepted one: what changed, not the whole match (issue 60).
  const live = liveParseBytes > 0 ? createLiveBases(liveParseBytes) : null;
  if (live !== null) {
    app.addHook('onResponse', async (request, reply) => {
      const note = request.liveBasis;
      if (note === null || reply.statusCode < 200 || reply.statusCode >= 300) return;
      live.set(note.key, note.basis ?? { text: note.text, value: note.value, index: null });
    });
  }

  /** The value of an upload's text parsed against its match's last accepted upload, or null: parse it whole. */
  function reparsed(request: FastifyRequest, decoded: { text: string; trimmed: JsonText }): unknown {
    const key = live === null ? null : uploadKey(request, decoded.trimmed);
    if (key === null) return undefined;
    const basis = trimmedOnlyJsonSpace(decoded.text, decoded.trimmed) ? live?.get(key) : undefined;
    const answer = basis === undefined ? null : reparse(basis, decoded.trimmed, shape);
    request.liveBasis = { key, text: decoded.trimmed, value: answer?.value, basis: answer?.basis ?? null };
    // Told in the access log: an operator sees whether LIVE_PARSE_BYTES holds the live matches.
    noteInAccessLog(request, { parse: answer === null ? 'whole' : 'incremental' });
    return answer === null ? undefined : answer.value;
  }

  function readHere(request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) {
    const decoded = decodeBody(body);
    if ('problem' in decoded) return done(validationError(decoded.problem));
    let value = repeated.get(decoded.trimmed);
    if (value === undefined) {
      value = reparsed(request, decoded);
      if (value === undefined) {
        const parsed = parseBody(decoded.text, shape);
        if ('problem' in parsed) return done(validationError(parsed.problem));
        value = parsed.value;
        if (request.liveBasis !== null) request.liveBasis.value = value;
      }
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
        // Not kept as a basis: a large body is parsed off the event loop, where a walk against its last would not run.
        request.rawJson = { text: read.text, parsed: false };
        done(null, read.standIn);
      },
      () => readHere(request, bytes, done),
    );
  });
  return {
    forgetBodies: () => {
      repeated.clear();
      live?.clear();
    },
  };
}

/** Whether what trimming took from the text's ends is JSON's whitespace, so the trimmed text parses as the whole one does. */
function trimmedOnlyJsonSpace(text: string, trimmed: string): boolean {
  if (text.length === trimmed.length) return true;
  const lead = text.length - text.trimStart().length;
  for (let i = 0; i < lead; i += 1) if (!isSpace(text.charCodeAt(i))) return false;
  for (let i = lead + trimmed.length; i < text.length; i += 1) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}
