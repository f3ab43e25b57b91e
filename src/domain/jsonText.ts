/**
 * JSON text kept exactly as a client sent it, so the write path stores it without
 * re-serialising and readers get back what was uploaded.
 */
export type JsonText = string & { readonly __brand: 'JsonText' };

export const asJsonText = (text: string) => text as JsonText;

const PAYLOAD_KEY = ',"payload":';

/**
 * Writes `{...envelope, "payload": <text>}` with the payload spliced in last, untouched.
 * The envelope must be a non-empty object without a "payload" key.
 */
export function withPayload(envelope: object, payload: JsonText): string {
  return `${JSON.stringify(envelope).slice(0, -1)}${PAYLOAD_KEY}${payload}}`;
}

/**
 * Splits text written by `withPayload`. JSON.stringify escapes every quote inside string
 * values, so the first `,"payload":` is the envelope's own key, never text from its values.
 */
export function splitPayload(text: string): { envelope: unknown; payload: JsonText } {
  const at = text.indexOf(PAYLOAD_KEY);
  if (at < 0 || !text.endsWith('}')) throw new Error('event data has no payload');
  return {
    envelope: JSON.parse(`${text.slice(0, at)}}`),
    payload: asJsonText(text.slice(at + PAYLOAD_KEY.length, -1)),
  };
}
