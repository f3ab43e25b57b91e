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
  return select(text, skipSpace(text, 0), selection, null, '').value;
}

/**
 * Where a scan of a text skipped its large arrays and objects, by their place in it (the names
 * of the members on the way from the top), for the scan of the text's next version.
 */
export interface SkippedValues {
  readonly text: string;
  readonly spans: ReadonlyMap<string, readonly [start: number, end: number]>;
}

/** Skipped values shorter than this are not noted: scanning them costs about what comparing them would. */
const NOTED_MIN = 512;

/**
 * selectJson, skipping what `earlier` (a scan of the previous version of the text) skipped at
 * the same place when this text holds it again, maybe with more after its last element (a live
 * match's next rally), with a native comparison of their shared text instead of a scan of it.
 * The same value for any `earlier`: what it noted is compared with this text, never trusted.
 * Also what this scan skipped, for the next version's.
 */
export function selectJsonAfter(text: string, selection: JsonSelection, earlier: SkippedValues | null): { value: unknown; skipped: SkippedValues } {
  const noting: Noting = { earlier, spans: new Map() };
  return { value: select(text, skipSpace(text, 0), selection, noting, '').value, skipped: { text, spans: noting.spans } };
}

interface Noting {
  earlier: SkippedValues | null;
  spans: Map<string, [start: number, end: number]>;
}

/** Separates the member names of a place: a name's text has no unescaped control character. */
const PLACE_SEPARATOR = '\u0000';

/**
 * Just past the array or object at `at` (at `place`), as valueEnd. One the earlier text
 * had at the same place, all but its closing bracket, that this text repeats from `at` is
 * skipped by comparing them: after those characters a scan of either text is at depth 1,
 * outside any string, so the scan goes on from there.
 */
function skipNoted(text: string, at: number, noting: Noting, place: string): number {
  const { earlier } = noting;
  const span = earlier?.spans.get(place);
  const shared = earlier === null || span === undefined ? -1 : sharedOpening(text, at, earlier.text, span);
  const end = shared < 0 ? valueEnd(text, at) : containerEnd(text, at + shared, 1);
  if (end - at >= NOTED_MIN) noting.spans.set(place, [at, end]);
  return end;
}

/** How many characters from `at` are the earlier value's from `start` up to its closing bracket before `end`, or -1 when they differ. */
function sharedOpening(text: string, at: number, earlier: string, [start, end]: readonly [number, number]): number {
  const open = end - 1 - start;
  return at + open <= text.length && text.slice(at, at + open) === earlier.slice(start, end - 1) ? open : -1;
}

/** Just past the value that starts at `at`. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) return containerEnd(text, at + 1, 1);
  let end = at;
  for (let c = text.charCodeAt(end); end < text.length && c !== COMMA && c !== CLOSE_OBJECT && c !== CLOSE_ARRAY && !isSpace(c); c = text.charCodeAt(end))
    end += 1;
  return end;
}

/** Just past the bracket that closes the object or array a scan at `from` is `depth` levels inside of (outside any string). */
function containerEnd(text: string, from: number, depth: number): number {
  for (let i = from; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth += 1;
    else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  throw new SyntaxError('unterminated object or array in JSON');
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
 * past its closing quote), or null when the selection does not name it; `byLength` is
 * lengthsOf(selection). A key without escapes is compared in place, no string made, and only
 * with the names of its length and first character: a payload of 290,000 keys the selection
 * does not name costs a scan, not 290,000 strings hashed or compared.
 */
function memberNamed(text: string, start: number, end: number, escaped: boolean, selection: Members, byLength: Map<number, string[]>): string | null {
  if (escaped) {
    const key: string = JSON.parse(text.slice(start, end));
    return Object.hasOwn(selection, key) ? key : null;
  }
  const names = byLength.get(end - start - 2);
  if (names === undefined) return null;
  const first = text.charCodeAt(start + 1);
  for (const name of names) if (name.charCodeAt(0) === first && text.startsWith(name, start + 1)) return name;
  return null;
}

/**
 * Just past the closing quote of the member name whose opening quote is at `at`, negated when
 * the name has an escape: one pass over a short name, where stringEnd's search and a second
 * look for backslashes cost more.
 */
function nameEnd(text: string, at: number): number {
  let escaped = false;
  for (let i = at + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return escaped ? -(i + 1) : i + 1;
    if (c === BACKSLASH) {
      escaped = true;
      i += 1;
    }
  }
  throw new SyntaxError('unterminated string in JSON');
}

/** The place of the member whose name is quoted from `start` to `end`: its name as written (another spelling only misses the earlier scan's). */
const memberPlace = (place: string, text: string, start: number, end: number) => place + PLACE_SEPARATOR + text.slice(start + 1, end - 1);

/** The selection of the value at `at`; with `noting`, what it skips is noted by `place` (see selectJsonAfter). */
function select(text: string, at: number, selection: JsonSelection, noting: Noting | null, place: string): { value: unknown; end: number } {
  const first = text.charCodeAt(at);
  if (selection === true || (first !== OPEN_OBJECT && first !== OPEN_ARRAY)) {
    const end = valueEnd(text, at);
    return { value: JSON.parse(text.slice(at, end)), end };
  }
  if (first === OPEN_ARRAY || selection === 'kind') {
    const end = noting === null ? valueEnd(text, at) : skipNoted(text, at, noting, place);
    return { value: first === OPEN_ARRAY ? [] : {}, end };
  }
  const members: Record<string, unknown> = {};
  const byLength = lengthsOf(selection);
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return { value: members, end: i + 1 };
  for (;;) {
    const keyStart = i;
    const ended = nameEnd(text, expect(text, i, QUOTE) - 1);
    const keyEnd = Math.abs(ended);
    const key = memberNamed(text, i, keyEnd, ended < 0, selection, byLength);
    i = skipSpace(text, expect(text, skipSpace(text, keyEnd), COLON));
    const wanted = key === null ? undefined : selection[key];
    if (key === null || wanted === undefined) {
      const c = text.charCodeAt(i);
      i =
        noting === null || (c !== OPEN_OBJECT && c !== OPEN_ARRAY) ? valueEnd(text, i) : skipNoted(text, i, noting, memberPlace(place, text, keyStart, keyEnd));
    } else {
      const member = select(text, i, wanted, noting, noting === null ? '' : memberPlace(place, text, keyStart, keyEnd));
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
