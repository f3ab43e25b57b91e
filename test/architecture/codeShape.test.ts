import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';

/** No function longer than this outside views (templates are long by nature): split it by what it does. */
const MAX_FUNCTION_LINES = 120;
/** Casts other than `as const`, in src/ and projections/: a type guard, a generic or a typed helper says it better. */
const MAX_CASTS = 30;

const root = fileURLToPath(new URL('../..', import.meta.url));
const sources = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
const files = [...sources('src'), ...sources('projections')].map((file) => ({
  file,
  source: ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true),
}));

/** Every node of a file, depth first. */
function* nodesOf(node: ts.Node): Generator<ts.Node> {
  yield node;
  for (const child of node.getChildren()) yield* nodesOf(child);
}

/** A function's name as a reader finds it: its own, or the variable or property it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) return parent.name.getText(source);
  return '(anonymous)';
}

t.test(`no function over ${MAX_FUNCTION_LINES} lines outside views`, async (t) => {
  const lineOf = (source: ts.SourceFile, position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const long = files
    .filter(({ file }) => !file.split('/').includes('views'))
    .flatMap(({ file, source }) =>
      [...nodesOf(source)].flatMap((node) => {
        if (!ts.isFunctionLike(node) || !('body' in node) || node.body === undefined) return [];
        const lines = lineOf(source, node.end) - lineOf(source, node.getStart(source)) + 1;
        return lines > MAX_FUNCTION_LINES ? [{ where: `${file} ${nameOf(node, source)}`, lines }] : [];
      }),
    );
  t.same(
    long.map(({ where, lines }) => `${where}: ${lines} lines`),
    [],
  );
});

t.test(`no "as unknown as", and at most ${MAX_CASTS} other casts but "as const", in src/ and projections/`, async (t) => {
  const isCast = (node: ts.Node): node is ts.AsExpression | ts.TypeAssertion => ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
  // A chain (`x as unknown as T`) is one cast: its outer node.
  const casts = files.flatMap(({ file, source }) =>
    [...nodesOf(source)].flatMap((node) =>
      isCast(node) && node.type.getText(source) !== 'const' && !isCast(node.parent)
        ? [
            {
              where: `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`,
              throughUnknown: isCast(node.expression) && node.expression.type.getText(source) === 'unknown',
            },
          ]
        : [],
    ),
  );
  t.same(
    casts.filter(({ throughUnknown }) => throughUnknown).map(({ where }) => where),
    [],
    'documents are read through documentOf, values through type guards',
  );
  t.ok(casts.length <= MAX_CASTS, `${casts.length} casts: ${casts.map(({ where }) => where).join(', ')}`);
});
