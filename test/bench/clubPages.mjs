// The club dashboard's Players and Stats pages for a club of MATCHES synced matches (default
// 1,000): time per page view, median and p95 of sequential views, on the embedded default.
// Run against another build with MATCHLOG_DIST=/path/to/dist (e.g. an older commit, for "before").
// --smoke: 8 matches, one view a page, nothing checked but that every answer is 2xx/3xx (npm test runs it).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cliArgs, serverArgs } from './build.mjs';

const smoke = process.argv.includes('--smoke');
const dist = process.env.MATCHLOG_DIST === undefined ? null : resolve(process.env.MATCHLOG_DIST);
const nodeArgs = (bin, ...args) => (dist === null ? (bin === 'server' ? serverArgs() : cliArgs(...args)) : [join(dist, `src/bin/${bin}.js`), ...args]);
const matches = smoke ? 8 : Number(process.env.MATCHES ?? 1000);
const views = smoke ? 1 : Number(process.env.VIEWS ?? 30);
const generator = fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'matchlog-clubpages-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'warn',
  WRITE_RATE_LIMIT: 'off',
  MAX_EVENT_LOOP_DELAY_MS: '0',
  MATCHLOG_ADMIN_PASSWORD: 'correct horse battery staple',
};

const club = JSON.parse(
  execFileSync(
    process.execPath,
    nodeArgs('matchlog', 'club-create', '--name', 'Bench VC', '--email', 'bench@club.test', '--team', 'Bench Herons', '--app-key', '--json'),
    { env, encoding: 'utf8' },
  ),
);
const teamId = club.teams[0].teamId;
const server = spawn(process.execPath, nodeArgs('server'), { env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolveUrl) => {
  createInterface({ input: server.stdout }).on('line', (line) => {
    const found = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
    if (found) resolveUrl(found[1]);
  });
});

try {
  // 40 distinct generated matches (both sports' shapes: volleyball), re-used under 1,000 ids and 4 seasons.
  const payloads = Array.from({ length: smoke ? 4 : 40 }, (_, i) =>
    JSON.parse(
      execFileSync(process.execPath, [generator, '--seed', String(i + 1), '--club', club.clubId, '--team', teamId], { encoding: 'utf8', maxBuffer: 1 << 26 }),
    ),
  );
  const started = Date.now();
  for (let start = 0; start < matches; start += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, matches - start) }, async (_, k) => {
        const i = start + k;
        const body = { ...payloads[i % payloads.length], id: `club-bench-${i}`, side: 'home', season: `202${i % 4}/2${(i % 4) + 1}` };
        const res = await fetch(`${base}/api/matches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-app-key': club.appKey.key },
          body: JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`POST /api/matches (upload ${i}) answered ${res.status}: ${await res.text()}`);
      }),
    );
  }
  console.log(`seeded ${matches} synced matches in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Log in like a browser: the form's CSRF token and cookies, then the session cookie.
  const jar = new Map();
  const remember = (res) => {
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair.split('=');
      jar.set(name, value.join('='));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const form = await fetch(`${base}/dashboard/login`);
  remember(form);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())[1];
  const login = await fetch(`${base}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, email: 'bench@club.test', password: env.MATCHLOG_ADMIN_PASSWORD }).toString(),
  });
  remember(login);
  if (login.status !== 303) throw new Error(`login: ${login.status}`);

  console.log(`| page (${matches} matches) | median ms | p95 ms | page KB |`);
  console.log('|---|---:|---:|---:|');
  for (const path of ['/dashboard/players', '/dashboard/stats', '/dashboard/stats?season=2021%2F22', '/dashboard/matches', '/dashboard']) {
    const times = [];
    let size = 0;
    for (let i = 0; i < views + 3; i += 1) {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${base}${path}`, { headers: { cookie: cookie() } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
      if (i >= 3) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      size = Buffer.byteLength(text);
    }
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
    console.log(`| ${path} | ${at(0.5)} | ${at(0.95)} | ${(size / 1024).toFixed(0)} |`);
  }
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
