import fc from 'fast-check';
import { fixture } from './fixtures.js';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';

/**
 * Sequences of upload texts for the incremental parse's differential tests (issue 60): real
 * live-scored matches as their apps send them, and random edits of them at random character
 * offsets, valid JSON or not.
 */

/** Every upload of a live volleyball match (one more rally each), and of a basketball match cut after every few actions. */
export function liveSequences(): string[][] {
  const volleyball = liveMatchUploads({ seed: 7 });
  const basketball = fixture({ sport: 'basketball', seed: 3 });
  const actions = basketball.actions as unknown[];
  const cuts: string[] = [];
  for (let n = 0; n <= actions.length; n += 7) cuts.push(JSON.stringify({ ...basketball, actions: actions.slice(0, n), status: 'in_progress' }));
  return [volleyball, cuts];
}

/** Characters edits insert: JSON's structure, escapes, whitespace (JSON's and not), non-ASCII and lone surrogates. */
const PIECES = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ',',
  ':',
  ' ',
  '\n',
  '\t',
  '\u00a0',
  '\\',
  '\\"',
  '\\u0041',
  '\\ud800',
  '\ud800',
  'é',
  '😀',
  '0',
  '1',
  '-',
  '.',
  'e',
  '9',
  'true',
  'false',
  'null',
  'x',
  '"a":1,',
  '"a":',
  '{"__proto__":{}}',
  '"__proto__":1,',
  '"constructor":{"prototype":1},',
  '[[[[[[[[[[',
  ']]]]]]]]]]',
  '{"k":[1,2,{"m":null}]}',
  '"id":"x",',
  '\u0001',
] as const;

/** One edit: a replacement of `remove` characters at `at` (a fraction of the text's length) by `insert`. */
export interface TextEdit {
  at: number;
  remove: number;
  insert: string;
}

export const textEdit: fc.Arbitrary<TextEdit> = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.oneof(fc.constant(0), fc.nat(3), fc.nat(40)),
  insert: fc.oneof(
    fc.constant(''),
    fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }).map((pieces) => pieces.join('')),
    fc.string({ maxLength: 6 }),
  ),
});

export function applyEdit(text: string, edit: TextEdit): string {
  const at = Math.floor(edit.at * text.length);
  return text.slice(0, at) + edit.insert + text.slice(at + edit.remove);
}

/**
 * Structured edits that keep the text valid JSON: a value replaced, an item added, a member
 * added, removed or given twice, inside a random container of the parsed text.
 */
export function structuredEdit(text: string, choice: number, salt: number): string {
  const value: unknown = JSON.parse(text);
  const containers: (Record<string, unknown> | unknown[])[] = [];
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    containers.push(node as Record<string, unknown> | unknown[]);
    for (const child of Object.values(node)) visit(child);
  };
  visit(value);
  const target = containers[Math.floor(choice * containers.length) % containers.length]!;
  const replacements: unknown[] = [salt, -salt / 7, `s${salt}`, null, true, { n: salt }, [salt, [salt]], 'ü\u2028"'];
  const replacement = replacements[salt % replacements.length];
  if (Array.isArray(target)) {
    const i = salt % (target.length + 1);
    if (salt % 3 === 0) target.splice(i, 0, replacement);
    else if (salt % 3 === 1 && target.length > 0) target.splice(i % target.length, 1);
    else target[i % Math.max(1, target.length)] = replacement;
    return JSON.stringify(value);
  }
  const keys = Object.keys(target);
  const key = keys.length > 0 ? keys[salt % keys.length]! : 'k';
  if (salt % 4 === 0) {
    // A member given twice: JSON.stringify cannot write one, so it is spliced into the text.
    const text2 = JSON.stringify(value);
    const marker = JSON.stringify(target);
    const at = text2.indexOf(marker);
    if (at < 0 || keys.length === 0) return text2;
    return `${text2.slice(0, at + 1)}${JSON.stringify(key)}:${JSON.stringify(replacement)},${text2.slice(at + 1)}`;
  }
  if (salt % 4 === 1) delete target[key];
  else target[salt % 4 === 2 ? `new${salt}` : key] = replacement;
  return JSON.stringify(value, null, salt % 5 === 0 ? 1 : undefined);
}

/** Equal as JSON.parse's values are: the same keys in the same order, numbers alike by Object.is (so -0 is not 0). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i += 1) {
    if (keysA[i] !== keysB[i]) return false;
    if (!sameJson((a as Record<string, unknown>)[keysA[i]!], (b as Record<string, unknown>)[keysB[i]!])) return false;
  }
  return true;
}
