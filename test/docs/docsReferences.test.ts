import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

/** The docs name files, settings and constants of the tree; a rename that leaves them behind fails here. */
const root = fileURLToPath(new URL('../..', import.meta.url));

function filesUnder(folder: string, keep: (path: string) => boolean): string[] {
  return readdirSync(join(root, folder)).flatMap((name) => {
    const path = join(folder, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(join(root, path)).isDirectory()) return filesUnder(path, keep);
    return keep(path) ? [path] : [];
  });
}

const docs = ['README.md', ...filesUnder('docs', (path) => path.endsWith('.md'))];
const code = [
  ...['src', 'projections', 'test'].flatMap((folder) => filesUnder(folder, (path) => /\.(ts|mts|mjs|js)$/.test(path))),
  '.ci/run',
  'docker-compose.yml',
];
const codeText = code.map((file) => readFileSync(join(root, file), 'utf8')).join('\n');

const lines = (file: string) =>
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .map((text, index) => ({ file, line: index + 1, text }));
const docLines = docs.flatMap(lines);
const where = (ref: { file: string; line: number }) => `${ref.file}:${ref.line}`;

/** Tree paths as the docs write them (`src/…`, `docs/…`), and relative Markdown links. */
const TREE_PATH = /(?<![\w./-])(?:src|projections|test|docs|\.ci)\/[\w./@-]*[\w/]/g;
const MD_LINK = /\]\((?!https?:|mailto:|#)([^)\s]+)\)/g;
/** A glob, a placeholder or a built file names no one file of the tree. */
const NOT_A_PATH = /[*<>{}$]|^(?:src|projections|test)\/\.\.\./;

const treeNames = new Set(['src', 'projections', 'test'].flatMap((folder) => filesUnder(folder, () => true)).map((path) => path.split('/').at(-1)));

t.test('every bare file name README.md quotes (`engine.ts`) is a file of the tree', async (t) => {
  const missing = lines('README.md').flatMap((ref) =>
    [...ref.text.matchAll(/`([\w.-]+\.(?:ts|mts|mjs|js))`/g)].filter((match) => !treeNames.has(match[1])).map((match) => `${where(ref)} ${match[1]}`),
  );
  t.same(missing, [], 'file names README.md quotes that no folder of the tree has');
});

t.test('every file or folder README.md and docs/*.md name exists in the tree', async (t) => {
  const missing: string[] = [];
  for (const ref of docLines) {
    for (const match of ref.text.matchAll(TREE_PATH)) {
      const path = match[0].replace(/:\d+$/, '');
      if (!NOT_A_PATH.test(path) && !existsSync(join(root, path))) missing.push(`${where(ref)} ${path}`);
    }
    for (const match of ref.text.matchAll(MD_LINK)) {
      const path = normalize(join(dirname(ref.file), match[1]!.replace(/#.*$/, '')));
      if (!NOT_A_PATH.test(path) && !existsSync(join(root, path))) missing.push(`${where(ref)} ${relative('.', path)} (link)`);
    }
  }
  t.same(missing, [], 'paths named in the docs that the tree does not have');
});

/** The comment part of a line of code: a whole line of `//`, `/*` or ` * `, or what follows ` // `. */
function commentOf(text: string): string {
  const trimmed = text.trim();
  if (/^(?:\/\/|\/\*|\*)/.test(trimmed)) return trimmed;
  const at = text.indexOf(' // ');
  return at < 0 ? '' : text.slice(at + 4);
}

/** The scripts of package.json, each as a line of its own (where `package.json` says them). */
const packageScripts = Object.entries((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts).map(
  ([name, script]) => ({ file: `package.json (scripts.${name})`, line: 0, text: script }),
);
/** What code and configuration say of the tree: comments of the code, the config files whole, package.json's scripts. */
const saidInCode = [
  ...code.filter((file) => /\.(ts|mts|mjs|js)$/.test(file)).flatMap((file) => lines(file).map((ref) => ({ ...ref, text: commentOf(ref.text) }))),
  ...['.ci/run', 'biome.jsonc', 'knip.jsonc', 'tsconfig.json', 'tsconfig.build.json'].flatMap(lines),
  ...packageScripts,
];
/** File names a comment may cite alone (`README.md`, `decisions.md`): the Markdown files of the tree. */
const markdownNames = new Set(['README.md', ...docs.map((path) => path.split('/').at(-1))]);

t.test('every file or folder a code comment, a config file or an npm script names exists in the tree', async (t) => {
  const missing: string[] = [];
  for (const ref of saidInCode) {
    for (const match of ref.text.matchAll(TREE_PATH)) {
      const path = match[0].replace(/:\d+$/, '');
      // A pattern goes on past the path (`admin-<page>.png`, `${name}`); a module is named by its build path or none.
      const pattern = /^[\w.-]*[*<>{}$]/.test(ref.text.slice(match.index + match[0].length));
      const module = [path, `${path.replace(/\.js$/, '')}.ts`, `${path}.ts`, `${path}.mjs`].some((file) => existsSync(join(root, file)));
      if (!NOT_A_PATH.test(path) && !pattern && !module) missing.push(`${where(ref)} ${path}`);
    }
    for (const match of ref.text.matchAll(/(?<![\w./-])([A-Za-z][\w-]*\.md)\b/g)) {
      if (!markdownNames.has(match[1]!)) missing.push(`${where(ref)} ${match[1]} (no such Markdown file here)`);
    }
  }
  t.same(missing, [], 'paths named in comments, configuration and scripts that the tree does not have');
});

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');

t.test('every link to a heading (`#anchor`, `file.md#anchor`) in README.md and docs/*.md finds the heading', async (t) => {
  const anchors = new Map(
    docs.map((file) => [file, new Set(lines(file).flatMap((ref) => (/^#+ /.test(ref.text) ? [anchorOf(ref.text.replace(/^#+ /, ''))] : [])))]),
  );
  const broken: string[] = [];
  for (const ref of docLines) {
    for (const match of ref.text.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
      if (/^https?:/.test(match[1]!)) continue;
      const target = match[1] === '' ? ref.file : normalize(join(dirname(ref.file), match[1]!));
      const known = anchors.get(target);
      if (known !== undefined && !known.has(match[2]!)) broken.push(`${where(ref)} ${match[1]}#${match[2]}`);
    }
  }
  t.same(broken, [], 'anchors no heading of their page makes');
});

/** An environment variable the code reads: `env.NAME`, `env['NAME']`, or its name as a string (`integer(env, 'NAME', …)`). */
const envRead = new Set(
  [...codeText.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b|\benv\[\s*'([A-Z][A-Z0-9_]*)'\s*\]|'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  ),
);
/** Read by other programs, not matchlog: glibc's allocator, the OpenTelemetry SDK, SQLite's result codes. */
const FOREIGN = /^(?:MALLOC_ARENA_MAX|OTEL_\w+|SQLITE_\w+)$/;

/** Names the docs give as settings: a settings table's first or `env` column, and `NAME=value`. */
function settingsNamed(): { name: string; ref: { file: string; line: number } }[] {
  const named: { name: string; ref: { file: string; line: number } }[] = [];
  let envColumn = -1;
  for (const ref of docLines) {
    const cells = ref.text.startsWith('|') ? ref.text.split('|').slice(1, -1) : null;
    if (cells === null) envColumn = -1;
    else if (cells.some((cell) => /^\s*(?:env|variable)\s*$/.test(cell))) envColumn = cells.findIndex((cell) => /^\s*(?:env|variable)\s*$/.test(cell));
    else if (envColumn >= 0 && !/^\s*—/.test(cells[envColumn] ?? '')) {
      // A cell starting with "—" has no setting (it may name the constant that fixes the limit).
      for (const match of (cells[envColumn] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)) named.push({ name: match[1]!, ref });
    }
    for (const match of ref.text.matchAll(/(?<![\w.$-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=(?!=)/g)) named.push({ name: match[1]!, ref });
  }
  return named;
}

t.test('every setting README.md and docs/*.md name is read by the code', async (t) => {
  const unread = settingsNamed()
    .filter(({ name }) => !envRead.has(name) && !FOREIGN.test(name))
    .map(({ name, ref }) => `${where(ref)} ${name}`);
  t.same(unread, [], 'variables the docs name that no code reads');
});

t.test('every constant-like name README.md and docs/*.md quote (`UPPER_SNAKE`) is in the code', async (t) => {
  const absent: string[] = [];
  for (const ref of docLines) {
    for (const match of ref.text.matchAll(/`[^`]*`/g)) {
      for (const name of match[0].match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []) {
        if (!FOREIGN.test(name) && !new RegExp(`\\b${name}\\b`).test(codeText)) absent.push(`${where(ref)} ${name}`);
      }
    }
  }
  t.same(absent, [], 'names the docs quote that no code has');
});

t.test("docs/decisions.md's index links every section of the page", async (t) => {
  const headings = lines('docs/decisions.md').flatMap((ref) => (/^## /.test(ref.text) && ref.text !== '## Index' ? [anchorOf(ref.text.slice(3))] : []));
  const linked = new Set([...readFileSync(join(root, 'docs/decisions.md'), 'utf8').matchAll(/^- \[[^\]]+\]\(#([^)]+)\)/gm)].map((match) => match[1]));
  t.same(
    headings.filter((anchor) => !linked.has(anchor)),
    [],
    'sections the index at the top does not link',
  );
});
