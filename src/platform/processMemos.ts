import { createLru } from './lru.js';

/** A memo registered here: what it holds, and how to empty it. */
interface RegisteredMemo {
  readonly holds: string;
  readonly size: () => number;
  readonly clear: () => void;
}

const memos = new Map<string, RegisteredMemo>();

/**
 * The process's memos of pure functions, registered in one place: each is made here, for the
 * whole process (the write path, the runner and a rebuild in one process share it, and may: a
 * memo holds an input and its result, the same for all of them), says what it holds, and is
 * emptied by `clearProcessMemos` when a match is erased (src/runtime/app.ts's erasure sweep), as
 * its inputs may come from the erased payloads. Any other state is made by its owner and passed
 * in (the projections' by their runner: projections/projectionMemory.ts; pages and answers by
 * the app). Today: `teamNames` (src/domain/teamName.ts) and `addressClasses` (src/http/clientAddress.ts).
 */
export function processMemo<V>(name: string, holds: string, max: number) {
  if (memos.has(name)) throw new Error(`a process memo named ${name} is registered already`);
  const lru = createLru<V>(max);
  memos.set(name, { holds, size: () => lru.size(), clear: () => lru.deleteWhere(() => true) });
  return lru;
}

/** Empties every memo of the process (a match was erased: none of what came with its payloads may stay). */
export function clearProcessMemos(): void {
  for (const memo of memos.values()) memo.clear();
}

/** Each registered memo by name: what it holds, and how many entries it holds now. */
export const processMemos = (): { name: string; holds: string; entries: number }[] =>
  [...memos].map(([name, memo]) => ({ name, holds: memo.holds, entries: memo.size() }));
