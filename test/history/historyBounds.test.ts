import { randomUUID } from 'node:crypto';
import t from 'tap';
import { asJsonText } from '../../src/domain/jsonText.js';
import { encodeMatchEvent } from '../../src/domain/matchEvents.js';
import { json, startTestApp } from '../helpers/testApp.js';

// Defect 3 and the diff part of defect 6 (issue 10), over a real listening server.

interface HistoryJson {
  next: number | null;
  entries: { revision: number; diff: { summary: string; teams: unknown[]; players: unknown[] } | null; version?: string }[];
}

t.test('the diff names renamed teams, renamed players and changed shirt numbers', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const v1 = {
    homeTeam: { name: 'Lakeside' },
    awayTeam: { name: 'Hillcrest' },
    playerStats: [
      { name: 'Ana Silva', number: 7, team: 'home', kills: 3 },
      { playerId: 'p2', name: 'Bo Chen', number: 9, team: 'home', kills: 1 },
    ],
  };
  const v2 = {
    homeTeam: { name: 'Lakeside Herons' },
    awayTeam: { name: 'Hillcrest' },
    playerStats: [
      { name: 'Ana Silva-Costa', number: 7, team: 'home', kills: 3 },
      { playerId: 'p2', name: 'Bo Chen', number: 10, team: 'home', kills: 1 },
    ],
  };
  for (const payload of [v1, v2]) await fetch(`${base}/api/matches/ren`, { method: 'PUT', headers: json, body: JSON.stringify(payload) });
  const history = (await (await fetch(`${base}/api/matches/ren/history`)).json()) as HistoryJson;
  const diff = history.entries[1]?.diff;
  t.same(diff?.teams, [{ side: 'home', from: 'Lakeside', to: 'Lakeside Herons' }]);
  t.same(diff?.players, [
    { player: '#10 Bo Chen', change: 'renumbered', from: '9', to: '10' },
    { player: '#7 Ana Silva-Costa', change: 'renamed', from: 'Ana Silva', to: 'Ana Silva-Costa' },
  ]);
  t.equal(diff?.summary, 'home team renamed “Lakeside” → “Lakeside Herons”; #10 Bo Chen: shirt #9 → #10; player renamed “Ana Silva” → “Ana Silva-Costa”');
  t.notMatch(diff?.summary, /no change/);
});

t.test('history of huge versions: every response under 1 MiB, each version one ?revision=N away', async (t) => {
  const { app } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const big = (v: number) => JSON.stringify({ v, rows: Array.from({ length: 30_000 }, (_, i) => ({ i, text: `row ${i} of version ${v} `.repeat(4) })) });
  for (let v = 0; v < 3; v += 1)
    t.equal(
      (await fetch(`${base}/api/matches/huge`, { method: 'PUT', headers: json, body: big(v) })).status,
      200,
      `version ${v}: ${(big(v).length / 1048576).toFixed(1)} MiB`,
    );
  // Pages may end early (bounded work per request); following `next` gives every entry.
  const entries: HistoryJson['entries'] = [];
  for (let from: number | null = 0, pages = 0; from !== null && pages < 5; pages += 1) {
    const text = await (await fetch(`${base}/api/matches/huge/history?limit=100&from=${from}`)).text();
    t.ok(Buffer.byteLength(text) < 1024 * 1024, `history page ${pages + 1}: ${Buffer.byteLength(text)} bytes`);
    const page = JSON.parse(text) as HistoryJson;
    entries.push(...page.entries);
    from = page.next;
  }
  t.same(
    entries.map((e) => e.revision),
    [0, 1, 2],
  );
  t.match(entries[2]?.diff?.summary, /rows changed/);
  const version = (await (await fetch(`${base}${entries[1]?.version}`)).json()) as { payload: { v: number } };
  t.equal(version.payload.v, 1, 'the full version is one request away');
});

t.test('a stored payload nested 5,000 deep: history, page and diff answer (no recursion to overflow)', async (t) => {
  const { app, engine } = await startTestApp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  // Stored before the depth limit existed: appended to the log directly, as an old event would be.
  const deep = (leaf: number) => `{"note":${'['.repeat(5000)}${leaf}${']'.repeat(5000)}}`;
  const events = [
    {
      type: 'MatchCreated',
      data: encodeMatchEvent({ type: 'MatchCreated', data: { matchId: 'deep', protection: 'unprotected', createdVia: 'PUT', payload: asJsonText(deep(1)) } }),
    },
    { type: 'MatchReplaced', data: encodeMatchEvent({ type: 'MatchReplaced', data: { matchId: 'deep', replacedVia: 'PUT', payload: asJsonText(deep(2)) } }) },
  ].map((event) => ({ ...event, id: randomUUID(), metadata: { schemaVersion: 1 } }));
  const { position } = await engine.eventStore.appendToStream('match-deep', events, 'no_stream');
  t.ok(await engine.waitForReaders(position, 10_000), 'projected');
  const res = await fetch(`${base}/api/matches/deep/history`);
  t.equal(res.status, 200);
  const history = (await res.json()) as HistoryJson;
  t.equal(history.entries[1]?.diff?.summary, 'note changed');
  t.equal((await fetch(`${base}/match/deep/history`)).status, 200, 'the history page');
});
