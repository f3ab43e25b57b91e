import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const mainTs = fileURLToPath(new URL('../../src/bin/server.ts', import.meta.url));

/** The tests' TypeScript loader by its full path: .taprc's `--import=./test/tsx.mjs` is resolved from where a process starts. */
const loader = `--import=${new URL('../tsx.mjs', import.meta.url).href}`;

/** Node flags that let a child process run our TypeScript the way tap runs the tests (test/tsx.mjs). */
export function typescriptExecArgv(): string[] {
  return process.execArgv.flatMap((arg) => (arg === '--import=./test/tsx.mjs' || arg === loader ? [loader] : arg === '--enable-source-maps' ? [arg] : []));
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Every line the server wrote to stdout and stderr. */
  output: string[];
  exited: Promise<number | null>;
}

/**
 * Starts `src/bin/server.ts` (or another script that listens, with its args) as a real process on a free loopback port;
 * with `openFiles`, under `ulimit -n openFiles` (through sh).
 */
export async function startServerProcess(
  env: Record<string, string>,
  script = mainTs,
  args: string[] = [],
  { openFiles }: { openFiles?: number } = {},
): Promise<ServerProcess> {
  const argv = [...typescriptExecArgv(), script, ...args];
  const [command, commandArgs] =
    openFiles === undefined ? [process.execPath, argv] : ['sh', ['-c', `ulimit -n ${openFiles} && exec "$0" "$@"`, process.execPath, ...argv]];
  const child = spawn(command, commandArgs, {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('\n')}`)), 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${String(code)} before listening:\n${output.join('\n')}`));
    });
  });
  return { url, child, output, exited };
}

/** Polls /readyz until the server reports every projection caught up (for up to a generous minute by default). */
export async function waitUntilReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/readyz`);
      const body = (await res.json()) as { projections: { lag: number }[] };
      if (res.ok && body.projections.every((p) => p.lag === 0)) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
