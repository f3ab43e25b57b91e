// Bytes of every file under a folder (SQLite files, their WAL and shared memory): what a data
// directory takes on disk, for the benches that report it.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function diskBytes(folder) {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    total += entry.isDirectory() ? diskBytes(path) : statSync(path).size;
  }
  return total;
}
