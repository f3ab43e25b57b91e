/**
 * Bounds on an upload's shape: nesting depth and the number of keys plus array items. Walked
 * with an explicit stack, so no depth can overflow the call stack.
 */
export interface JsonShapeLimits {
  maxDepth: number;
  maxValues: number;
}

/**
 * Keys that poison prototypes when a parsed value is later merged into another object: a
 * `__proto__` key, or a `constructor` object with a `prototype` key (the keys Fastify's
 * secure parser refuses). JSON.parse makes them plain own keys; they are refused here, in the
 * same walk as the bounds, rather than by scanning the text again.
 */
function poisonedKey(object: Record<string, unknown>): string | null {
  if (Object.hasOwn(object, '__proto__')) return '__proto__';
  // biome-ignore lint/complexity/useLiteralKeys: the parsed JSON's own key, not Object.prototype's constructor.
  const ownConstructor = Object.hasOwn(object, 'constructor') ? object['constructor'] : null;
  if (typeof ownConstructor === 'object' && ownConstructor !== null && Object.hasOwn(ownConstructor, 'prototype')) return 'constructor.prototype';
  return null;
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
    const object = current as Record<string, unknown>;
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
