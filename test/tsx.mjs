// The TypeScript loader of the tests (.taprc's `--import=./test/tsx.mjs`) and of the processes
// they start (test/helpers/serverProcess.ts, test/bench/build.mjs): tsx, which compiles with
// esbuild, where tap's default, ts-node, loads the TypeScript compiler into every test process
// (twice the CPU per file: README, "Tests"). On Node 20 tsx registers its hooks in the main
// thread only, and a worker thread does not inherit them, so a worker registers them here: the
// helper thread (src/runtime/helperThread.ts) runs helperThreadMain.ts from source in the tests.
import { isMainThread } from 'node:worker_threads';

await import('tsx');
if (!isMainThread && Number(process.versions.node.split('.')[0]) < 22) (await import('tsx/esm/api')).register();
