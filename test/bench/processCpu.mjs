// CPU time spent by a server process (all its threads, and its main thread alone) and by this
// process (the load generator), read around a measured run: what a throughput ratio costs, and
// the budget a target leaves on this machine (docs/performance/steps.md, step 67). Linux (/proc);
// elsewhere every reading is null and the benches print none.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU of a /proc stat file, in ms; null when it cannot be read. */
function statMs(path) {
  try {
    // The command name, in parentheses, may hold spaces: the fields are counted after it.
    const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** CPU so far, in ms: the server's threads together, its main thread, and this process's. */
function reading(pid) {
  const own = process.cpuUsage();
  return { server: statMs(`/proc/${pid}/stat`), main: statMs(`/proc/${pid}/task/${pid}/stat`), generator: (own.user + own.system) / 1000 };
}

/**
 * Starts a reading of `pid`'s CPU; `perRequest(n)` then answers each side's ms of CPU per request
 * over the `n` requests made since (the server's null where /proc is not there).
 */
export function cpuSince(pid) {
  const start = reading(pid);
  return {
    perRequest(requests) {
      const end = reading(pid);
      const per = (key) => (start[key] === null || end[key] === null || requests === 0 ? null : (end[key] - start[key]) / requests);
      return { server: per('server'), main: per('main'), generator: per('generator') };
    },
  };
}

/**
 * What a server may spend per request to answer `rate` requests a second on this machine, while
 * the load generator spends `generatorMs` per request on the same cores: its main thread at most
 * a second's worth per second, and all its threads at most what the cores leave.
 */
export function cpuBudget(rate, generatorMs, cores = availableParallelism()) {
  return { main: 1000 / rate, server: (cores * 1000) / rate - generatorMs };
}
