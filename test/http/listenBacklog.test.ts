import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { startServerProcess } from '../helpers/serverProcess.js';
import { tempDataDir } from '../helpers/testApp.js';

// The kernel's queue of connections waiting to be accepted: Node's default of 511 overflowed under
// bursts of connects (docs/limits.md, Connections). `ss` shows a listening socket's backlog as its Send-Q.

const ss = (() => {
  try {
    execFileSync('ss', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function backlogOf(url: string): number {
  const port = new URL(url).port;
  const line =
    execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' })
      .trim()
      .split('\n')[0] ?? '';
  // State Recv-Q Send-Q Local:Port Peer:Port
  return Number(line.split(/\s+/)[2]);
}

t.test(
  'the server listens with LISTEN_BACKLOG, by default 4,096 (or the kernel cap)',
  { skip: ss ? false : '`ss` (iproute2) is not installed: cannot read a socket backlog' },
  async (t) => {
    const set = await startServerProcess({ DATA_DIR: tempDataDir(t), LISTEN_BACKLOG: '777' });
    t.teardown(() => set.child.kill('SIGKILL'));
    t.equal(backlogOf(set.url), 777);

    const byDefault = await startServerProcess({ DATA_DIR: tempDataDir(t) });
    t.teardown(() => byDefault.child.kill('SIGKILL'));
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    t.equal(backlogOf(byDefault.url), Math.min(4096, somaxconn));
  },
);
