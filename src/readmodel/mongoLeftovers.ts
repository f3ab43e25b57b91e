import type { CheckpointHint } from './mongoCheckpoints.js';

/** The names rebuilds and start-overs give the collections they make: `<collection>__g<12 hex digits>`. */
const GENERATED_NAME = /__g[0-9a-f]{12}$/;

/**
 * Of the `existing` MongoDB collections, those that no projection's pointer names any more:
 * what a switch retired (the pointer's `retired`, or a collection of a generated name that no
 * pointer names), and a read-model collection's own name once a pointer has moved it elsewhere
 * (recreated by a worker that was still committing to it). A collection a pointer names for
 * one of its read-model collections (live, or staged by a rebuild) is never among them, nor is
 * a collection no rebuild or start-over ever touched. List `existing` before reading `pointers`:
 * a switch names its new collections before it makes them, so none of them can be taken for a leftover.
 */
export function leftoverCollections(existing: readonly string[], pointers: readonly CheckpointHint[]): string[] {
  const named = new Set<string>();
  const movedAway = new Set<string>();
  const retired = new Set<string>();
  for (const pointer of pointers) {
    for (const [name, stored] of Object.entries(pointer.collections ?? {})) {
      named.add(stored);
      if (stored !== name) movedAway.add(name);
    }
    for (const name of pointer.retired ?? []) retired.add(name);
  }
  return existing.filter((name) => !named.has(name) && (retired.has(name) || movedAway.has(name) || GENERATED_NAME.test(name)));
}
