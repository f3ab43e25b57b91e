import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

/** Biome's lineWidth (biome.json): the formatter keeps code within it, but cannot break text, comments or CSS. */
const MAX_LINE = 160;
const FOLDERS = ['src', 'projections', 'test'];
const CHECKED = /\.(ts|mts|mjs|js|css)$/;

const root = fileURLToPath(new URL('../..', import.meta.url));

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return CHECKED.test(entry.name) ? [path] : [];
  });
}

t.test(`no line over ${MAX_LINE} characters in ${FOLDERS.join(', ')}`, async (t) => {
  const files = FOLDERS.flatMap(sources);
  t.ok(files.length > 100, `${files.length} files read`);
  const long = files.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      // Characters as a reader counts them (code points), not UTF-16 units: "·" and "–" are one each.
      .flatMap((line, i) => ([...line].length > MAX_LINE ? [`${file}:${i + 1} (${[...line].length} characters)`] : [])),
  );
  // Strings split with +, comments on several lines, CSS between declarations; markup ends a line
  // in a template line continuation (src/http/views/html.ts), which keeps the page's bytes.
  for (const where of long) t.fail(`${where}: over ${MAX_LINE} characters`);
  t.equal(long.length, 0, `${long.length} lines over ${MAX_LINE} characters`);
});
