import { Type } from '@sinclair/typebox';

/**
 * A stream revision in a query string, for the API and the pages alike: a whole number from 0
 * to 2^53 − 1 (what JSON and JavaScript numbers hold exactly). Anything else is a 400 saying so.
 */
export const Revision = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
