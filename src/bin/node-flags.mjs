#!/usr/bin/env node
// The flags node runs the server with (`npm start`, the compose image, the benchmarks); run as a
// script, it prints them for a command line: node $(node src/bin/node-flags.mjs) dist/src/bin/server.js
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/** V8's helper threads when node is not told: `--v8-pool-size` defaults to 4. */
const NODE_POOL_SIZE = 4;

/**
 * V8's helper threads (garbage collection, compilation) leave a core to the main thread: on two
 * cores node's four helpers took it in turns during each full collection, turns of the event loop
 * ran to 25–57 ms, and as node accepts one connection a turn, new connections waited ~100–300 ms
 * (match day's upload p99: median 187 ms over five runs, 107 ms over six with one helper; docs/performance/steps.md, step 55).
 * Nothing for machines with more than NODE_POOL_SIZE + 1 cores, where node's default leaves one.
 */
export function serverNodeFlags(cores = availableParallelism()) {
  const helpers = Math.max(1, cores - 1);
  return helpers < NODE_POOL_SIZE ? [`--v8-pool-size=${helpers}`] : [];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(serverNodeFlags().join(' '));
