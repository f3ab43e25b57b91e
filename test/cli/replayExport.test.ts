import { createHash } from 'node:crypto';
import t from 'tap';
import { diffItems, type MatchDiff } from '../../src/domain/matchDiff.js';
import { runMatchlog } from '../helpers/cli.js';
import { json, startTestApp } from '../helpers/testApp.js';

const player = (name: string, number: number) => ({ playerId: 'h-07', name, number, team: 'home', stats: { kills: 3 } });
/** Four versions: created, then a team renamed, a player renamed, a shirt number changed (and the score). */
const versions = [
  {
    id: 'renamed',
    sport: 'volleyball',
    homeTeam: { name: 'Herons', setsWon: 0 },
    awayTeam: { name: 'Owls', setsWon: 0 },
    playerStats: [player('Ana Jensen', 7)],
  },
  {
    id: 'renamed',
    sport: 'volleyball',
    homeTeam: { name: 'Hillcrest Herons', setsWon: 1 },
    awayTeam: { name: 'Owls', setsWon: 0 },
    playerStats: [player('Ana Jensen', 7)],
  },
  {
    id: 'renamed',
    sport: 'volleyball',
    homeTeam: { name: 'Hillcrest Herons', setsWon: 1 },
    awayTeam: { name: 'Owls', setsWon: 0 },
    playerStats: [player('Ana Jensen-Berg', 7)],
  },
  {
    id: 'renamed',
    sport: 'volleyball',
    homeTeam: { name: 'Hillcrest Herons', setsWon: 1 },
    awayTeam: { name: 'Owls', setsWon: 0 },
    playerStats: [player('Ana Jensen-Berg', 17)],
  },
].map((payload) => JSON.stringify(payload));

t.test("replay shows what the history shows; export carries each version's payload digest", async (t) => {
  const { app, dataDir } = await startTestApp(t);
  for (const text of versions) t.equal((await app.inject({ method: 'POST', url: '/api/matches', headers: json, payload: text })).statusCode < 300, true);
  const history = (await app.inject({ method: 'GET', url: '/api/matches/renamed/history' })).json() as {
    entries: { revision: number; diff?: (MatchDiff & { summary: string }) | null }[];
  };
  const diffs = history.entries.flatMap((entry) => (entry.diff ? [entry.diff] : []));
  t.equal(diffs.length, 3);
  t.match(
    diffs.map((d) => d.summary).join(' | '),
    /home team renamed “Herons” → “Hillcrest Herons”.*player renamed “Ana Jensen” → “Ana Jensen-Berg”.*Ana Jensen-Berg: shirt #7 → #17/,
  );

  const replay = await runMatchlog(['replay', 'renamed'], { DATA_DIR: dataDir });
  t.equal(replay.code, 0, replay.stderr);
  const lines = new Set(replay.stdout.split('\n').map((line) => line.trim()));
  for (const diff of diffs) {
    for (const item of diffItems(diff, 'each')) t.ok(lines.has(item), `replay prints "${item}" as the history has it`);
  }
  t.match(replay.stdout, /home team renamed “Herons” → “Hillcrest Herons”/);
  t.match(replay.stdout, /player renamed “Ana Jensen” → “Ana Jensen-Berg”/);
  t.match(replay.stdout, /Ana Jensen-Berg: shirt #7 → #17/);

  const exported = await runMatchlog(['export', 'renamed'], { DATA_DIR: dataDir });
  t.equal(exported.code, 0, exported.stderr);
  const exportLines = exported.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { revision: number; payloadDigest?: string; payloadDigestComputed?: boolean });
  t.same(
    exportLines.map((line) => line.payloadDigest),
    versions.map((text) => `sha256:${createHash('sha256').update(text).digest('base64url')}`),
    "each line carries the SHA-256 digest of that version's payload text as uploaded",
  );
  t.ok(
    exportLines.every((line) => line.payloadDigestComputed),
    'versions now keep only a salted digest (so erasure leaves nothing to confirm a guess with): the plain one is computed from the text, and says so',
  );
});
