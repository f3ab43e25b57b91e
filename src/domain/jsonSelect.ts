import { QUOTE, BACKSLASH, COMMA, COLON, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY, isSpace, skipSpace, stringEnd } from './jsonScan.js';
/**
 * What to take of a JSON value: `true` the whole value; `'kind'` only what it is (an object
 * becomes `{}`, an array `[]`, a scalar stays itself); an object the named members of an object,
 * each taken by its own selection (an array in its place becomes `[]`, a scalar stays itself).
 */
export type JsonSelection = true | 'kind' | { readonly [member: string]: JsonSelection };

/**
 * The parts of a JSON text a selection names, parsed; what it does not name is skipped without
 * being built: a few fields of an 85 KB payload cost a scan of its text, not its ~110 KB of
 * objects. Equal to applying the selection to JSON.parse(text) (later duplicate members win, as
 * there). The text must be valid JSON (a stored payload, parsed when it was uploaded): what is
 * not may throw a SyntaxError or give a partial value.
 */
export function selectJson(text: string, selection: JsonSelection): unknown {
  return select(text, skipSpace(text, 0), selection).value;
}

/** Just past the value that starts at `at`. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    for (let i = at; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) i = stringEnd(text, i) - 1;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
      else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i + 1;
    }
    throw new SyntaxError('unterminated object or array in JSON');
  }
  let end = at;
  for (let c = text.charCodeAt(end); end < text.length && c !== COMMA && c !== CLOSE_OBJECT && c !== CLOSE_ARRAY && !isSpace(c); c = text.charCodeAt(end))
    end += 1;
  return end;
}

function expect(text: string, at: number, code: number): number {
  if (text.charCodeAt(at) !== code) throw new SyntaxError(`expected '${String.fromCharCode(code)}' at ${at} in JSON`);
  return at + 1;
}

type Members = { readonly [member: string]: JsonSelection };

/** A selection's member names by length, made once per selection object. */
const namesByLength = new WeakMap<Members, Map<number, string[]>>();
function lengthsOf(selection: Members): Map<number, string[]> {
  let byLength = namesByLength.get(selection);
  if (byLength === undefined) {
    byLength = new Map();
    for (const name of Object.keys(selection)) byLength.set(name.length, [...(byLength.get(name.length) ?? []), name]);
    namesByLength.set(selection, byLength);
  }
  return byLength;
}

/**
 * The selection's member named by the key string from `start` (its opening quote) to `end` (just
 * past its closing quote), or null when the selection does not name it. A key without escapes is
 * compared in place, no string made: a payload of 290,000 keys the selection does not name costs
 * a scan, not 290,000 strings hashed.
 */
function memberNamed(text: string, start: number, end: number, selection: Members): string | null {
  for (let c = start + 1; c < end - 1; c += 1) {
    if (text.charCodeAt(c) === BACKSLASH) {
      const key: string = JSON.parse(text.slice(start, end));
      return Object.hasOwn(selection, key) ? key : null;
    }
  }
  const names = lengthsOf(selection).get(end - start - 2);
  if (names !== undefined) for (const name of names) if (text.startsWith(name, start + 1)) return name;
  return null;
}

function select(text: string, at: number, selection: JsonSelection): { value: unknown; end: number } {
  const first = text.charCodeAt(at);
  if (selection === true || (first !== OPEN_OBJECT && first !== OPEN_ARRAY)) {
    const end = valueEnd(text, at);
    return { value: JSON.parse(text.slice(at, end)), end };
  }
  if (first === OPEN_ARRAY) return { value: [], end: valueEnd(text, at) };
  if (selection === 'kind') return { value: {}, end: valueEnd(text, at) };
  const members: Record<string, unknown> = {};
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return { value: members, end: i + 1 };
  for (;;) {
    const keyEnd = stringEnd(text, expect(text, i, QUOTE) - 1);
    const key = memberNamed(text, i, keyEnd, selection);
    i = skipSpace(text, expect(text, skipSpace(text, keyEnd), COLON));
    const wanted = key === null ? undefined : selection[key];
    if (key === null || wanted === undefined) {
      i = valueEnd(text, i);
    } else {
      const member = select(text, i, wanted);
      members[key] = member.value;
      i = member.end;
    }
    i = skipSpace(text, i);
    if (text.charCodeAt(i) === CLOSE_OBJECT) return { value: members, end: i + 1 };
    i = skipSpace(text, expect(text, i, COMMA));
  }
}

/**
 * Visits the members called `name` of the object `text` holds, in text order (duplicates too:
 * JSON.parse keeps the last one's value); `visit(start)` may say where the value starting there
 * ends, knowing something of it (null: the scan finds out). The other members are skipped, no
 * string made of them: a 290,000-key payload costs a scan, not 290,000 names. False when the
 * text holds another kind of value. The text must be valid JSON, as for selectJson.
 */
export function visitMembers(text: string, name: string, visit: (start: number) => number | null): boolean {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_OBJECT) return false;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return true;
  for (;;) {
    const keyEnd = stringEnd(text, expect(text, i, QUOTE) - 1);
    const start = skipSpace(text, expect(text, skipSpace(text, keyEnd), COLON));
    const end = (isName(text, i, keyEnd, name) ? visit(start) : null) ?? valueEnd(text, start);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_OBJECT) return true;
    i = skipSpace(text, expect(text, i, COMMA));
  }
}

/** Whether the quoted member name from `start` to `end` is `name`; only a longer one may spell it with escapes. */
function isName(text: string, start: number, end: number, name: string): boolean {
  const length = end - start - 2;
  if (length === name.length) return text.startsWith(name, start + 1);
  return length > name.length && text.slice(start, end).includes('\\') && JSON.parse(text.slice(start, end)) === name;
}

/**
 * The elements of the array whose `[` is at `at`, read from `from`: just past the `[` (all of
 * them), or just past one of its elements (those after it). `bounds` holds each element's start
 * and end, in pairs; `end` is just past the `]`. The text must be valid JSON, as for selectJson.
 */
export function arrayElements(text: string, at: number, from = at + 1): { bounds: number[]; end: number } {
  const bounds: number[] = [];
  let i = skipSpace(text, from);
  if (text.charCodeAt(i) === CLOSE_ARRAY) return { bounds, end: i + 1 };
  if (from !== at + 1) i = skipSpace(text, expect(text, i, COMMA));
  for (;;) {
    const end = valueEnd(text, i);
    bounds.push(i, end);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_ARRAY) return { bounds, end: i + 1 };
    i = skipSpace(text, expect(text, i, COMMA));
  }
}

/** Whether `text` has a character that may follow a whole value inside an array at `at`: space, a comma or the `]`. */
export const endsArrayElement = (text: string, at: number) => {
  const c = text.charCodeAt(at);
  return c === COMMA || c === CLOSE_ARRAY || isSpace(c);
};
