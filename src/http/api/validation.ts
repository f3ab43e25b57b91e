import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';

/**
 * Request validation. Bodies are checked exactly as sent: a number where a string belongs is
 * an error, not something to coerce. Query strings and headers arrive as text and may be
 * coerced to the numbers and booleans their schemas name.
 */
export function registerValidation(app: FastifyInstance) {
  const common = { useDefaults: true, removeAdditional: true, allErrors: false, addUsedSchema: false, strict: false, verbose: true } as const;
  const strict = new Ajv({ ...common, coerceTypes: false });
  const coercing = new Ajv({ ...common, coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
