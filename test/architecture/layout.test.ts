import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

/** The layering of docs/architecture.md: a folder may import only from its own rank or below. */
const RANKS: [folder: string, rank: number][] = [
  ['src/bin', 7],
  ['src/cli', 6],
  ['src/runtime', 5],
  ['src/observability', 4],
  ['src/http', 4],
  ['src/live', 3],
  ['src/commands', 3],
  ['src/history', 3],
  ['src/witness', 3],
  ['src/webhooks', 3],
  ['projections', 3],
  ['src/eventstore', 2],
  ['src/readmodel', 2],
  ['src/domain', 1],
  ['src/platform', 0],
];

const root = fileURLToPath(new URL('../..', import.meta.url));

function sources(folder: string): string[] {
  return readdirSync(join(root, folder)).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const files = [...sources('src'), ...sources('projections')];
const rankOf = (file: string) => RANKS.find(([folder]) => file.startsWith(`${folder}/`))?.[1];

/** Relative imports of a file (type-only ones included: they are dependencies of the reader's mind too). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => normalize(join(dirname(file), match[1]!.replace(/\.js$/, '.ts'))));
}
const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]));

t.test('every source file belongs to a layer', async (t) => {
  t.same(
    files.filter((file) => rankOf(file) === undefined && dirname(file) !== 'src'),
    [],
  );
});

t.test('at most three files at the root of src/', async (t) => {
  t.ok(files.filter((file) => dirname(file) === 'src').length <= 3);
});

t.test('imports point down: no file imports from a higher layer', async (t) => {
  const upward = [...graph].flatMap(([file, targets]) =>
    targets.filter((target) => (rankOf(target) ?? 0) > (rankOf(file) ?? 0)).map((target) => `${file} → ${target}`),
  );
  t.same(upward, []);
});

t.test('no import cycles', async (t) => {
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative('.', f)).join(' → '));
      return;
    }
    state.set(file, 'visiting');
    for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  t.same(cycles, []);
});

t.test('file names are unique across the tree', async (t) => {
  const seen = new Map<string, string[]>();
  for (const file of files) seen.set(basename(file), [...(seen.get(basename(file)) ?? []), file]);
  t.same(
    [...seen.values()].filter((paths) => paths.length > 1),
    [],
  );
});

/** The top folder a file belongs to, by the layering above (src/http/api belongs to src/http). */
const layerOf = (file: string) => RANKS.find(([folder]) => file.startsWith(`${folder}/`))?.[0];

t.test('no imports across folders of the same rank: what two of them share lives a rank below', async (t) => {
  const sideways = [...graph].flatMap(([file, targets]) =>
    targets.filter((target) => rankOf(target) === rankOf(file) && layerOf(target) !== layerOf(file)).map((target) => `${file} → ${target}`),
  );
  t.same(sideways, []);
});

t.test('inside src/http, the api, public and dashboard folders import only src/http itself and its shared views', async (t) => {
  const siblings = ['src/http/api/', 'src/http/public/', 'src/http/dashboard/'];
  const across = [...graph].flatMap(([file, targets]) => {
    const own = siblings.find((folder) => file.startsWith(folder));
    return own === undefined
      ? []
      : targets.filter((target) => siblings.some((folder) => folder !== own && target.startsWith(folder))).map((target) => `${file} → ${target}`);
  });
  t.same(across, []);
});
