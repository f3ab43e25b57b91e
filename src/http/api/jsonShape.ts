/**
 * Bounds on an upload's shape: nesting depth and the number of keys plus array items. Walked
 * with an explicit stack, so no depth can overflow the call stack.
 */
export interface JsonShapeLimits {
  maxDepth: number;
  maxValues: number;
}

export function jsonShapeProblem(value: unknown, { maxDepth, maxValues }: JsonShapeLimits): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let values = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > maxDepth) return `the JSON is nested more than ${maxDepth} levels deep (MAX_JSON_DEPTH); flatten the payload`;
    const children = Array.isArray(current) ? current : Object.values(current);
    values += children.length;
    if (values > maxValues) return `the JSON has more than ${maxValues} keys and array items (MAX_JSON_VALUES); send a smaller payload`;
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return null;
}
