import { poisonedKey } from './jsonPoisoning.js';
import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, QUOTE, skipSpace, stringEnd } from './jsonScan.js';
import { isRecord } from '../platform/isRecord.js';

/**
 * An incremental parse of a JSON text against an earlier text of the same document (issue 60):
 * a scoring app sends its whole match after every rally, and between two uploads a few hundred
 * bytes differ. The earlier text's containers are indexed one level at a time, when first needed:
 * where each member or item lies. The new text is walked container by container along the
 * earlier one; a member or item whose characters are the earlier one's (a native comparison) is
 * the earlier value, shared; only what differs is parsed (JSON.parse of its slice), or walked into
 * when it is a large container. The value is a new object along each changed path and the
 * earlier values everywhere else: nothing is altered (values are shared, never mutated).
 *
 * The answer is exact or there is none: `reparse` returns null whenever the new text is not
 * plainly a document JSON.parse takes and the shape bounds pass (invalid syntax, a duplicate or
 * `__proto__` key, a bound a change may pass, a different top-level kind), and the caller then
 * takes the full path, which words the refusal. The same layout, approach and reuse of unchanged
 * subtrees as an editor's incremental parser (tree-sitter's edits, Lezer's fragments), without
 * their generality: JSON has no context beyond the bracket that opened a value.
 */

/** One container of a text, indexed one level deep. Offsets are relative to its opening bracket. */
interface ContainerIndex {
  /** An object's member names, decoded; null for an array. */
  readonly keys: readonly string[] | null;
  /** Each member's or item's value: where it starts and ends (just past it). */
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  /** The indexes of the values that are containers, made when first walked into. */
  readonly children: (ContainerIndex | undefined)[];
  /** Keys plus items within, as the shape bounds count them (src/http/api/jsonShape.ts). */
  readonly values: number;
  /** At least the nesting depth within, this container counting 1 (exact when indexed whole). */
  readonly depth: number;
  /** An object's member names to their places, made when a name is first looked up out of place. */
  places?: Map<string, number>;
}

/** An accepted text, its value (JSON.parse's), and its root's index once made. */
export interface ReparseBasis {
  readonly text: string;
  readonly value: unknown;
  index: ContainerIndex | null;
}

export interface ReparseLimits {
  maxDepth: number;
  maxValues: number;
}

/** Containers at least this long are walked into when they changed; shorter ones are parsed whole again. */
const WALK_INTO_CHARS = 512;

/**
 * Members and items a reparse may walk one by one (past the unchanged leads, which are compared
 * whole) before it leaves the text to the full path: a live upload walks tens; a text whose every
 * member moved would walk them all, several times JSON.parse's cost.
 */
const WALK_BUDGET = 2048;

/** Thrown inside a reparse when the new text needs the full path (caught in `reparse`). */
class FullPathNeeded extends Error {}
const fullPath = (): never => {
  throw new FullPathNeeded();
};

type Json = Record<string, unknown> | unknown[];
/** A parsed JSON value that is a container (JSON.parse makes no other objects). */
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null;
/** Member `key` of an object, or item `i` of an array. */
const childOf = (container: Json, key: string, i: number): unknown => (Array.isArray(container) ? container[i] : container[key]);

/**
 * The value of `text` as JSON.parse makes it, reusing `basis` (an earlier accepted text and its
 * value), and the basis for the next text; or null: take the full path.
 */
export function reparse(basis: ReparseBasis, text: string, limits: ReparseLimits): { value: unknown; basis: ReparseBasis } | null {
  const oldText = basis.text;
  const first = text.charCodeAt(0);
  if ((first !== OPEN_OBJECT && first !== OPEN_ARRAY) || first !== oldText.charCodeAt(0)) return null;
  const oldValue = basis.value;
  if (!isJson(oldValue)) return null;
  try {
    basis.index ??= indexContainer(oldText, 0, oldValue);
    const walk = new Reparse(oldText, text);
    const root = walk.container(basis.index, 0, oldValue, 0);
    if (root.end !== text.length) return null;
    if (root.index.depth > limits.maxDepth || root.index.values > limits.maxValues) return null;
    return { value: root.value, basis: { text, value: root.value, index: root.index } };
  } catch (error) {
    if (error instanceof FullPathNeeded || error instanceof SyntaxError || error instanceof RangeError) return null;
    throw error;
  }
}

interface Walked {
  value: unknown;
  /** Just past the value in the new text. */
  end: number;
}

interface WalkedContainer {
  value: Json;
  index: ContainerIndex;
  end: number;
}

/** One reparse: the earlier text and the new one. */
class Reparse {
  /** Members and items walked one by one so far (WALK_BUDGET). */
  private walked = 0;

  constructor(
    private readonly oldText: string,
    private readonly text: string,
  ) {}

  /** Whether the earlier value at [from, to) of the earlier text stands unchanged at `at` of the new one. */
  private same(from: number, to: number, at: number): boolean {
    // Equality of two slices is a native comparison of their characters (startsWith is ~100× slower here).
    if (this.text.slice(at, at + to - from) !== this.oldText.slice(from, to)) return false;
    const next = this.text.charCodeAt(at + to - from);
    // A number's digits may go on ("12" → "123"); any other value closes itself.
    return Number.isNaN(next) || isSpace(next) || next === COMMA || next === CLOSE_OBJECT || next === CLOSE_ARRAY;
  }

  /**
   * The most leading members or items of `old` (at `oldAt`) that stand unchanged at `at`, found
   * by halving: comparisons of the whole run, native, rather than one member at a time.
   */
  private unchangedLead(old: ContainerIndex, oldAt: number, at: number): number {
    let low = 0;
    let high = old.ends.length;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.same(oldAt, oldAt + old.ends[mid - 1]!, at)) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** The container whose earlier self (`old`, its value `oldValue`) is at `oldAt`, now at `at`. */
  container(old: ContainerIndex, oldAt: number, oldValue: Json, at: number): WalkedContainer {
    const text = this.text;
    if (text.charCodeAt(at) !== this.oldText.charCodeAt(oldAt)) fullPath();
    const isObject = old.keys !== null;
    const lead = this.unchangedLead(old, oldAt, at);
    const keys: string[] | null = isObject ? old.keys!.slice(0, lead) : null;
    const starts = old.starts.slice(0, lead);
    const ends = old.ends.slice(0, lead);
    const children = old.children.slice(0, lead);
    const reused = new Uint8Array(old.starts.length).fill(1, 0, lead);
    const object: Record<string, unknown> = {};
    const items: unknown[] = Array.isArray(oldValue) ? oldValue.slice(0, lead) : [];
    if (!Array.isArray(oldValue)) for (const key of keys ?? []) object[key] = oldValue[key];
    let added = 0;
    let depth = old.depth;
    const close = isObject ? CLOSE_OBJECT : CLOSE_ARRAY;
    let p = lead > 0 ? skipSpace(text, at + old.ends[lead - 1]!) : skipSpace(text, at + 1);
    if (lead === 0 && text.charCodeAt(p) === close) {
      return this.closed(isObject ? object : items, old, oldValue, reused, keys, starts, ends, children, 0, depth, p);
    }
    let cursor = lead;
    for (let n = lead; ; n += 1) {
      if (n > 0) {
        const c = text.charCodeAt(p);
        if (c === close) break;
        if (c !== COMMA) fullPath();
        p = skipSpace(text, p + 1);
      }
      this.walked += 1;
      if (this.walked > WALK_BUDGET) fullPath();
      let key = '';
      let match = -1;
      if (isObject) {
        if (text.charCodeAt(p) !== QUOTE) fullPath();
        const keyEnd = stringEnd(text, p);
        key = decodeName(text, p, keyEnd);
        if (key === '__proto__' || Object.hasOwn(object, key)) fullPath();
        p = skipSpace(text, keyEnd);
        if (text.charCodeAt(p) !== COLON) fullPath();
        p = skipSpace(text, p + 1);
        match = memberOf(old, key, n, reused);
      } else match = this.itemOf(old, oldAt, p, cursor, reused);
      const start = p;
      let value: unknown;
      let child: ContainerIndex | undefined;
      if (match >= 0 && this.same(oldAt + old.starts[match]!, oldAt + old.ends[match]!, p)) {
        reused[match] = 1;
        value = childOf(oldValue, key, match);
        child = old.children[match];
        p += old.ends[match]! - old.starts[match]!;
      } else {
        const changed = this.changedValue(old, oldAt, oldValue, match, key, p);
        value = changed.value;
        child = changed.index;
        p = changed.end;
        added += changed.values;
        depth = Math.max(depth, changed.depth + 1);
      }
      if (!isObject && match >= 0) cursor = match + 1;
      else if (!isObject) cursor += 1;
      if (isObject) {
        keys!.push(key);
        object[key] = value;
      } else items.push(value);
      starts.push(start - at);
      ends.push(p - at);
      children.push(child);
      p = skipSpace(text, p);
    }
    return this.closed(isObject ? object : items, old, oldValue, reused, keys, starts, ends, children, added, depth, p);
  }

  /** The finished container: its count is the earlier one's, less what was not reused, plus what is new. */
  private closed(
    value: Json,
    old: ContainerIndex,
    oldValue: Json,
    reused: Uint8Array,
    keys: string[] | null,
    starts: number[],
    ends: number[],
    children: (ContainerIndex | undefined)[],
    added: number,
    depth: number,
    closeAt: number,
  ): WalkedContainer {
    if (!Array.isArray(value) && poisonedKey(value) !== null) fullPath();
    let values = old.values - old.starts.length + starts.length + added;
    for (let i = 0; i < reused.length; i += 1) if (reused[i] === 0) values -= valuesWithin(old, oldValue, i);
    const index: ContainerIndex = { keys, starts, ends, children, values, depth };
    return { value, index, end: closeAt + 1 };
  }

  /** The earlier item an array's next item is most likely the same as: the cursor's, or one beside it. */
  private itemOf(old: ContainerIndex, oldAt: number, at: number, cursor: number, reused: Uint8Array): number {
    for (const candidate of [cursor, cursor + 1, cursor - 1]) {
      if (candidate < 0 || candidate >= old.starts.length || reused[candidate] === 1) continue;
      if (this.same(oldAt + old.starts[candidate]!, oldAt + old.ends[candidate]!, at)) return candidate;
    }
    return cursor < old.starts.length && reused[cursor] === 0 ? cursor : -1;
  }

  /** A member or item that differs from its earlier self (`match`, or none: -1): walked into when large, else parsed. */
  private changedValue(
    old: ContainerIndex,
    oldAt: number,
    oldValue: Json,
    match: number,
    key: string,
    at: number,
  ): Walked & { index: ContainerIndex | undefined; values: number; depth: number } {
    const text = this.text;
    const c = text.charCodeAt(at);
    if (match >= 0) {
      const from = oldAt + old.starts[match]!;
      const to = oldAt + old.ends[match]!;
      const earlier = childOf(oldValue, key, match);
      if ((c === OPEN_OBJECT || c === OPEN_ARRAY) && this.oldText.charCodeAt(from) === c && to - from >= WALK_INTO_CHARS && isJson(earlier)) {
        old.children[match] ??= indexContainer(this.oldText, from, earlier);
        const earlierIndex = old.children[match];
        const walked = this.container(earlierIndex, from, earlier, at);
        // Counted here as new: the earlier one is subtracted as not reused.
        return { value: walked.value, end: walked.end, index: walked.index, values: walked.index.values, depth: walked.index.depth };
      }
    }
    const end = valueEnd(text, at);
    const value: unknown = JSON.parse(text.slice(at, end));
    const shape = measure(value);
    if (shape.poisoned) fullPath();
    return { value, end, index: undefined, values: shape.values, depth: shape.depth };
  }
}

/** Keys plus items within a container's member or item `i` (0 for a scalar). */
function valuesWithin(index: ContainerIndex, value: Json, i: number): number {
  const indexed = index.children[i];
  if (indexed !== undefined) return indexed.values;
  return measure(childOf(value, index.keys?.[i] ?? '', i)).values;
}

/** A member name's decoded text: the quoted characters as they are when they hold no escape. */
function decodeName(text: string, from: number, to: number): string {
  for (let i = from + 1; i < to - 1; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 92 || c < 32) return String(JSON.parse(text.slice(from, to)));
  }
  return text.slice(from + 1, to - 1);
}

/** The earlier member named `key`: most likely at the same place. */
function memberOf(old: ContainerIndex, key: string, at: number, reused: Uint8Array): number {
  const keys = old.keys!;
  if (keys[at] === key && reused[at] === 0) return at;
  // A map, not a search: a member added at the front of 290,000 would otherwise cost a search per member after it.
  old.places ??= new Map(keys.map((name, place) => [name, place]));
  const found = old.places.get(key);
  return found !== undefined && reused[found] === 0 ? found : -1;
}

/** Just past the JSON value that starts at `at` (not checked: JSON.parse checks what it takes). */
function valueEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) return stringEnd(text, at);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let open = 0;
    for (let i = at; i < text.length; i += 1) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) i = stringEnd(text, i) - 1;
      else if (d === OPEN_OBJECT || d === OPEN_ARRAY) open += 1;
      else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) {
        open -= 1;
        if (open === 0) return i + 1;
      }
    }
    return fullPath();
  }
  let end = at;
  while (end < text.length) {
    const d = text.charCodeAt(end);
    if (isSpace(d) || d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY) break;
    end += 1;
  }
  return end;
}

/**
 * A container of an accepted text indexed one level deep, with its value's count and depth
 * (walked). The text is one JSON.parse took, so it is scanned without checks.
 */
function indexContainer(text: string, at: number, value: Json): ContainerIndex {
  const isObject = text.charCodeAt(at) === OPEN_OBJECT;
  const keys: string[] | null = isObject ? [] : null;
  const places = new Map<string, number>();
  const starts: number[] = [];
  const ends: number[] = [];
  const close = isObject ? CLOSE_OBJECT : CLOSE_ARRAY;
  let p = skipSpace(text, at + 1);
  if (text.charCodeAt(p) !== close) {
    for (;;) {
      if (isObject) {
        const keyEnd = stringEnd(text, p);
        const key = decodeName(text, p, keyEnd);
        // An earlier text with a name twice: its value keeps the last; no member maps to one place.
        if (places.has(key)) fullPath();
        places.set(key, keys!.length);
        keys!.push(key);
        p = skipSpace(text, skipSpace(text, keyEnd) + 1);
      }
      const end = valueEnd(text, p);
      starts.push(p - at);
      ends.push(end - at);
      p = skipSpace(text, end);
      if (text.charCodeAt(p) === close) break;
      p = skipSpace(text, p + 1);
    }
  }
  const shape = measure(value);
  const children = new Array<ContainerIndex | undefined>(starts.length).fill(undefined);
  return { keys, starts, ends, children, values: shape.values, depth: shape.depth, ...(isObject ? { places } : {}) };
}

/** A parsed value's keys plus items, its nesting depth (a container counting 1), and whether it holds a poisoning key. */
function measure(value: unknown): { values: number; depth: number; poisoned: boolean } {
  if (typeof value !== 'object' || value === null) return { values: 0, depth: 0, poisoned: false };
  const pending: object[] = [value];
  const depths: number[] = [1];
  let values = 0;
  let deepest = 0;
  while (pending.length > 0) {
    const current = pending.pop()!;
    const depth = depths.pop()!;
    deepest = Math.max(deepest, depth);
    if (Array.isArray(current)) {
      values += current.length;
      for (const child of current) {
        if (typeof child === 'object' && child !== null) {
          pending.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    // Not an array: an object (isRecord narrows it without a cast).
    if (!isRecord(current)) continue;
    const object = current;
    if (poisonedKey(object) !== null) return { values, depth: deepest, poisoned: true };
    for (const key in object) {
      values += 1;
      const child = object[key];
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return { values, depth: deepest, poisoned: false };
}
