// Starts the server for an attack benchmark (`script`, or the build, or the sources as
// build.mjs says): its own DATA_DIR, a loopback port, writes unlimited, log to
// DATA_DIR/server.log; resolves once /healthz answers. `stop()` ends it and removes the data.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverArgs } from './build.mjs';
import { untilAnswering } from './untilAnswering.mjs';

export async function startBenchServer({ script, name, env = {} }) {
  const dataDir = mkdtempSync(join(tmpdir(), `matchlog-${name}-`));
  const port = 3600 + Math.floor(Math.random() * 400);
  const log = openSync(join(dataDir, 'server.log'), 'w');
  const server = spawn(process.execPath, script ? [script] : serverArgs(), {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WRITE_RATE_LIMIT: 'off', ...env },
    stdio: ['ignore', log, log],
  });
  const base = `http://127.0.0.1:${port}`;
  await untilAnswering(`${base}/healthz`, { child: server, what: `the ${name} server (log: ${join(dataDir, 'server.log')})` });
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { server, port, base, stop, dataDir };
}
