/**
 * Read-model documents may hold keys that came from users (player names, payload fields):
 * MongoDB-wire servers refuse keys with `.`, keys starting with `$` (FerretDB: any `$`), NUL,
 * and FerretDB also empty keys. Such keys are stored escaped, reversibly: `%` → `%25`,
 * `.` → `%2E`, `$` → `%24`, NUL → `%00`, the empty key → `%`, and `__proto__` (which
 * BSON decoders may take for the prototype) → `%5F%5Fproto__`. Other keys made only of
 * letters, digits and `_` (every field a query names, see assertFieldPath) are unchanged, so
 * dotted queries work on stored documents as they are.
 */
const NEEDS_ESCAPE = /[%.$\0]/;

function escapeKey(key: string): string {
  if (key === '') return '%';
  if (key === '__proto__') return '%5F%5Fproto__';
  if (!NEEDS_ESCAPE.test(key)) return key;
  return key.replace(/[%.$\0]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function unescapeKey(key: string): string {
  if (key === '%') return '';
  if (!key.includes('%')) return key;
  return key.replace(/%([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

type Rename = (key: string) => string;

function mapValue(value: unknown, rename: Rename): unknown {
  if (Array.isArray(value)) return value.map((item) => mapValue(item, rename));
  if (typeof value !== 'object' || value === null) return value;
  return mapObject(value, rename);
}

function mapObject(value: object, rename: Rename): Record<string, unknown> {
  // fromEntries defines own properties, so a "__proto__" key stays data, never the prototype.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), mapValue(item, rename)]));
}

/** A JSON object with every key, at any depth, made safe to store. */
export const escapeKeys = (doc: object): Record<string, unknown> => mapObject(doc, escapeKey);

/** The JSON object escapeKeys was given. */
export const unescapeKeys = (stored: object): Record<string, unknown> => mapObject(stored, unescapeKey);
