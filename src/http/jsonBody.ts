import type { FastifyInstance } from 'fastify';
import { asJsonText, type JsonText } from '../domain/jsonText.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body's text as received (trimmed), for storing without re-serialising. */
    rawJson: JsonText | null;
  }
}

/**
 * JSON is the only body type the API takes: every other content type gets 415. Bodies are
 * parsed with Fastify's prototype-poisoning-safe parser, and their text is kept.
 */
export function registerJsonBody(app: FastifyInstance, bodyLimit: number) {
  app.removeAllContentTypeParsers();
  app.decorateRequest('rawJson', null);
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    /^application\/([\w.-]+\+)?json\s*(;.*)?$/i,
    { parseAs: 'string', bodyLimit },
    (request, body, done) => {
      const text = body.toString();
      parse(request, text, (error, value) => {
        if (!error) request.rawJson = asJsonText(text.trim());
        done(error, value);
      });
    },
  );
}
