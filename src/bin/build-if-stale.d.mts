/** Why the tree at `root` needs a build (a sentence), or null when its build is newer than every input (./build-if-stale.mjs). */
export function staleReason(root: string): string | null;
