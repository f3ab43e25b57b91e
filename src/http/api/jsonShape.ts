import { poisonedKey } from '../../domain/jsonPoisoning.js';
import { QUOTE, BACKSLASH, COMMA, COLON, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY, stringEnd } from '../../domain/jsonScan.js';
import { isRecord } from '../../platform/isRecord.js';

/**
 * Bounds on an upload's shape: nesting depth and the number of keys plus array items. Walked
 * with an explicit stack, so no depth can overflow the call stack.
 */
export interface JsonShapeLimits {
  maxDepth: number;
  maxValues: number;
}

/** What is wrong with a parsed upload's shape, or null: too deep, too many values, a poisoned key. */
export function jsonShapeProblem(value: unknown, { maxDepth, maxValues }: JsonShapeLimits): string | null {
  // Parallel stacks: no object allocated per value visited.
  const pending: object[] = [];
  const depths: number[] = [];
  if (typeof value === 'object' && value !== null) {
    pending.push(value);
    depths.push(1);
  }
  let values = 0;
  while (pending.length > 0) {
    const current = pending.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return `the JSON is nested more than ${maxDepth} levels deep (MAX_JSON_DEPTH); flatten the payload`;
    if (Array.isArray(current)) {
      values += current.length;
      if (values > maxValues) return tooMany(maxValues);
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
    const poisoned = poisonedKey(object);
    if (poisoned !== null) return `the JSON has a "${poisoned}" key, which is refused (prototype poisoning); rename it`;
    for (const key in object) {
      values += 1;
      const child = object[key];
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
    if (values > maxValues) return tooMany(maxValues);
  }
  return null;
}

const tooMany = (maxValues: number) => `the JSON has more than ${maxValues} keys and array items (MAX_JSON_VALUES); send a smaller payload`;

/** What an open bracket opened: an object, an array, or an object that is a `constructor` member's value. */
const OBJECT = 0;
const ARRAY = 1;
const CONSTRUCTOR = 2;

/** A member name that matters to the poisoning check, as JSON.parse reads it; '' for every other name. */
function poisoningName(text: string, start: number, end: number): string {
  const length = end - start - 2;
  for (let c = start + 1; c < end - 1; c += 1) if (text.charCodeAt(c) === BACKSLASH) return JSON.parse(text.slice(start, end));
  if (length !== 9 && length !== 11) return '';
  return text.slice(start + 1, end - 1);
}

/**
 * Whether a JSON text that JSON.parse took is inside the bounds and has no poisoning key, from
 * one scan of its text: a 290,000-key object costs ~10 ms here, ~200 ms walked (enumerating an
 * object that large is slow). It counts every member and item the text holds, duplicates
 * included, and flags a poisoning name wherever it stands, so it never passes a text whose
 * parsed value jsonShapeProblem refuses; a text it does not pass is walked for the exact answer.
 */
export function jsonTextFits(text: string, { maxDepth, maxValues }: JsonShapeLimits): boolean {
  const open: number[] = [];
  let values = 0;
  /** The next string is a member name. */
  let name = false;
  /** The value about to start is a `constructor` member's. */
  let ofConstructor = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (name) {
        const poisoning = poisoningName(text, i, end);
        if (poisoning === '__proto__' || (poisoning === 'prototype' && open.at(-1) === CONSTRUCTOR)) return false;
        ofConstructor = poisoning === 'constructor';
        name = false;
      }
      i = end - 1;
    } else if (c === OPEN_OBJECT) {
      open.push(ofConstructor ? CONSTRUCTOR : OBJECT);
      if (open.length > maxDepth) return false;
      name = true;
      ofConstructor = false;
    } else if (c === OPEN_ARRAY) {
      open.push(ARRAY);
      if (open.length > maxDepth) return false;
      let next = i + 1;
      while (text.charCodeAt(next) <= 32) next += 1;
      if (text.charCodeAt(next) !== CLOSE_ARRAY) values += 1;
      ofConstructor = false;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
      name = false;
      ofConstructor = false;
    } else if (c === COMMA) {
      if (open.at(-1) === ARRAY) values += 1;
      else name = true;
      ofConstructor = false;
    } else if (c === COLON) values += 1;
    if (values > maxValues) return false;
  }
  return true;
}
