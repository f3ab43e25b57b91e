/**
 * The stored form of read-model documents on MongoDB-wire servers, reversible, the same on
 * MongoDB and FerretDB (so a dump moves between them). Documents may hold keys and values that
 * came from users (player names, payload fields), and the servers refuse some of them:
 *
 * - keys with `.`, keys starting with `$` (FerretDB: any `$`), NUL, and on FerretDB the empty
 *   key: stored escaped, `%` → `%25`, `.` → `%2E`, `$` → `%24`, NUL → `%00`, the empty key →
 *   `%`, and `__proto__` (which BSON decoders may take for the prototype) → `%5F%5Fproto__`.
 *   Other keys made only of letters, digits and `_` (every field a query names, see
 *   assertFieldPath) are unchanged, so dotted queries work on stored documents as they are;
 * - an array directly inside an array (FerretDB 1.x has no nested arrays): stored as `{"%a": [...]}`;
 * - a string holding NUL (FerretDB 1.x refuses it): stored as `{"%s": "..."}`, `%` → `%25`, NUL → `%00`.
 *
 * No escaped key is ever `%a` or `%s` (a user's `%a` becomes `%25a`), so the markers cannot be
 * mistaken for data.
 */
const NEEDS_ESCAPE = /[%.$\0]/;
const NESTED_ARRAY = '%a';
const NUL_STRING = '%s';

function escapeKey(key: string): string {
  if (key === '') return '%';
  if (key === '__proto__') return '%5F%5Fproto__';
  if (!NEEDS_ESCAPE.test(key)) return key;
  return key.replace(/[%.$\0]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

const unescapeText = (text: string) => text.replace(/%([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

function unescapeKey(key: string): string {
  if (key === '%') return '';
  return key.includes('%') ? unescapeText(key) : key;
}

function encodeValue(value: unknown, inArray: boolean): unknown {
  if (typeof value === 'string') return value.includes('\0') ? { [NUL_STRING]: value.replace(/%/g, '%25').replace(/\0/g, '%00') } : value;
  if (Array.isArray(value)) {
    const items = value.map((item) => encodeValue(item, true));
    return inArray ? { [NESTED_ARRAY]: items } : items;
  }
  if (typeof value !== 'object' || value === null) return value;
  return encodeDocument(value);
}

function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && NESTED_ARRAY in value && Array.isArray(value[NESTED_ARRAY])) return value[NESTED_ARRAY].map(decodeValue);
  if (keys.length === 1 && NUL_STRING in value && typeof value[NUL_STRING] === 'string') return unescapeText(value[NUL_STRING]);
  return decodeDocument(value);
}

/** A JSON object in its stored form. */
export function encodeDocument(doc: object): Record<string, unknown> {
  // fromEntries defines own properties, so a "__proto__" key stays data, never the prototype.
  return Object.fromEntries(Object.entries(doc).map(([key, value]) => [escapeKey(key), encodeValue(value, false)]));
}

/** The JSON object encodeDocument was given. */
export function decodeDocument(stored: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(stored).map(([key, value]) => [unescapeKey(key), decodeValue(value)]));
}

/** A value compared by a query, in the stored form of the values it is compared with. */
export const encodeQueryValue = (value: unknown): unknown => encodeValue(value, false);
