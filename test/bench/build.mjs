// What a benchmark runs: the build in dist/ (each `npm run bench:*` builds it first), or, when the
// bench itself was started with tap's TypeScript loader (the smoke test in `npm test` does so),
// the TypeScript sources, for its own imports and for the servers and CLI commands it starts:
// a smoke run never measures a stale build and needs none.
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from '../../src/bin/node-flags.mjs';

/** The tests' TypeScript loader by its full path: .taprc's `--import=./test/tsx.mjs` is resolved from where a process starts. */
const loader = `--import=${new URL('../tsx.mjs', import.meta.url).href}`;

/** The TypeScript loader flags this process runs with (test/tsx.mjs), passed on to the processes it starts. */
export const loaderArgs = process.execArgv.flatMap((arg) =>
  arg === '--import=./test/tsx.mjs' || arg === loader ? [loader] : arg === '--enable-source-maps' ? [arg] : [],
);
export const fromSource = loaderArgs.includes(loader);

/** The file of a module given as its build path without `dist/` (e.g. `src/runtime/engine.js`). */
export function modulePath(path) {
  return fileURLToPath(new URL(fromSource ? `../../${path.replace(/\.js$/, '.ts')}` : `../../dist/${path}`, import.meta.url));
}

/** Imports a module of the project, built or from source as above. */
export const load = (path) => import(modulePath(path));

/**
 * Node's flags for the server: those `npm start` gives it (src/bin/node-flags.mjs), then
 * BENCH_SERVER_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a bench's server.
 */
export const serverNodeArgs = () => [...serverNodeFlags(), ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];

/** Node's arguments to run the server (`src/bin/server`), as `npm start` runs it. */
export const serverArgs = () => [...loaderArgs, ...serverNodeArgs(), modulePath('src/bin/server.js')];

/** Node's arguments to run the `matchlog` CLI with `args`. */
export const cliArgs = (...args) => [...loaderArgs, modulePath('src/bin/matchlog.js'), ...args];

/**
 * A random port for a bench's server, below Linux's ephemeral range (32768–60999): a port some
 * other process's outgoing connection holds cannot be listened on.
 */
export const benchPort = () => 20000 + Math.floor(Math.random() * 12000);
