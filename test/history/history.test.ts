import t from 'tap';
import { fixture } from '../helpers/fixtures.js';
import { json, startTestApp } from '../helpers/testApp.js';

const token = 'history-token-0123456789';
const intruder = 'intruder-token-0123456789';

/** A volleyball match as a scoring app re-uploads it during play: score and stats grow, actions are appended. */
function versions(count: number) {
  const base = fixture({ seed: 31, actions: 40, id: 'hist' }) as Record<string, unknown> & {
    actions: unknown[];
    playerStats: { stats: Record<string, number> }[];
  };
  return Array.from({ length: count }, (_, v) => ({
    ...base,
    homeTeam: { name: 'Lakeside Herons', setsWon: Math.floor(v / 4) },
    awayTeam: { name: 'Old Harbour Owls', setsWon: 0 },
    sets: [{ set: 1, home: 10 + v, away: 8 }],
    playerStats: base.playerStats.map((p, i) => (i === 0 ? { ...p, stats: { ...p.stats, kills: v } } : p)),
    actions: base.actions.slice(0, 10 + v),
    note: v,
  }));
}

t.test('history of a protected match updated many times, with rejected writes in between', async (t) => {
  // Rejected writes are part of the history; the throttle on repeated 403s is tested elsewhere.
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: 'off' });
  const all = versions(12);
  for (const [v, payload] of all.entries()) {
    const res = await app.inject({
      method: v === 0 ? 'POST' : v % 2 ? 'PUT' : 'POST',
      url: v % 2 ? '/api/matches/hist' : '/api/matches',
      headers: { ...json, 'x-write-token': token },
      payload,
    });
    t.ok(res.statusCode < 300, `version ${v} stored`);
    const rejected = await app.inject({ method: 'PUT', url: '/api/matches/hist', headers: { ...json, 'x-write-token': intruder }, payload: { hacked: v } });
    t.equal(rejected.statusCode, 403);
  }

  const res = await app.inject({ method: 'GET', url: '/api/matches/hist/history?limit=100' });
  t.equal(res.statusCode, 200, 'public: no credentials needed');
  const history = res.json();
  t.match(history, { id: 'hist', url: 'http://matchlog.test/match/hist', protected: true, head: 11, next: null });
  t.equal(history.entries.length, 12, 'every version, and nothing else');
  t.same(
    history.entries.map((e: { revision: number }) => e.revision),
    [...Array(12).keys()],
  );
  t.same(
    history.entries.map((e: { type: string }) => e.type),
    ['MatchCreated', ...Array(11).fill('MatchReplaced')],
  );
  t.same(
    history.entries.map((e: { via: string }) => e.via),
    all.map((_, v) => (v % 2 ? 'PUT' : 'POST')),
  );
  t.equal(history.entries[0].protection, 'protected');
  t.same(
    history.entries.map((e: { version: string }) => e.version),
    [...Array(12).keys()].map((v) => `/api/matches/hist?revision=${v}`),
    'each version one request away',
  );
  t.notOk(
    history.entries.some((e: object) => 'payload' in e),
    'entries carry no payload',
  );
  for (const v of [0, 7, 11]) {
    const version = (await app.inject({ method: 'GET', url: history.entries[v].version })).json();
    t.equal(version.payload.note, v, `?revision=${v} is that version's payload`);
  }
  t.notOk(res.body.includes('hacked'), 'rejected writes never appear');
  t.notOk(res.body.includes(token) || res.body.includes(intruder) || res.body.includes('hmac'), 'no token, no hash');
  t.ok(
    history.entries.every((e: { recordedAt: string; requestId: string }) => !Number.isNaN(Date.parse(e.recordedAt)) && e.requestId),
    'time and request of every write',
  );

  t.equal(history.entries[0].diff, null, 'the first version has nothing to compare with');
  const fifth = history.entries[4].diff;
  t.same(fifth.score, { home: { from: 0, to: 1 }, away: { from: 0, to: 0 } }, 'score change');
  t.same(fifth.lines, [{ label: 'Set 1', home: { from: 13, to: 14 }, away: { from: 8, to: 8 } }], 'set score change');
  t.equal(fifth.stats.length, 1);
  t.match(fifth.stats[0], { stat: 'kills', from: 3, to: 4 }, 'stat change');
  t.same(fifth.actions, { before: 13, after: 14, added: 1, removed: 0, changed: 0 }, 'one action appended');
  t.same(fifth.fields, [{ field: 'note', change: 'changed', from: 3, to: 4 }], 'a scalar field: from and to');
  t.equal(fifth.summary, 'score 0:0 → 1:0; Set 1 13–8 → 14–8; 1 stat changed; +1 action; note 3 → 4');
  t.same([fifth.teams, fifth.players, fifth.omitted], [[], [], 0], 'no renames');
});

t.test('pages, oldest or newest first, join up to the whole history', async (t) => {
  const { app } = await startTestApp(t);
  for (const payload of versions(7)) await app.inject({ method: 'PUT', url: '/api/matches/hist', headers: json, payload });
  const walk = async (order: string) => {
    const seen: number[] = [];
    const diffs: unknown[] = [];
    let from: number | null = null;
    for (let pages = 0; pages < 10; pages += 1) {
      const query: string = `order=${order}&limit=3${from === null ? '' : `&from=${from}`}`;
      const page = (await app.inject({ method: 'GET', url: `/api/matches/hist/history?${query}` })).json() as {
        entries: { revision: number; diff: unknown }[];
        next: number | null;
      };
      seen.push(...page.entries.map((e) => e.revision));
      diffs.push(...page.entries.map((e) => e.diff));
      from = page.next;
      if (from === null) break;
    }
    return { seen, diffs };
  };
  const oldest = await walk('oldest');
  const newest = await walk('newest');
  t.same(oldest.seen, [0, 1, 2, 3, 4, 5, 6]);
  t.same(newest.seen, [6, 5, 4, 3, 2, 1, 0]);
  t.same(newest.diffs, [...oldest.diffs].reverse(), 'diffs across page boundaries are the same either way');
  const bad = await app.inject({ method: 'GET', url: '/api/matches/hist/history?limit=500' });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().message, /limit/);
  for (const order of ['oldest', 'newest']) {
    const past = await app.inject({ method: 'GET', url: `/api/matches/hist/history?order=${order}&from=${Number.MAX_SAFE_INTEGER}` });
    t.same([past.statusCode, past.json().entries, past.json().next], [200, [], null], `${order}: a page past the end is empty`);
  }
  const huge = await app.inject({ method: 'GET', url: '/api/matches/hist/history?from=1485731603797857280196608' });
  t.equal(huge.statusCode, 400, 'a revision no log can reach is refused, not a server error');
  t.match(huge.json().message, /from/);
  t.equal((await app.inject({ method: 'GET', url: '/api/matches/nope/history' })).statusCode, 404);
});

t.test('time travel: the match as it was at revision N', async (t) => {
  const { app } = await startTestApp(t);
  for (const payload of versions(5)) await app.inject({ method: 'PUT', url: '/api/matches/hist', headers: json, payload });
  const at2 = await app.inject({ method: 'GET', url: '/api/matches/hist?revision=2' });
  t.equal(at2.statusCode, 200);
  t.match(at2.json(), { id: 'hist', revision: 2, protected: false, payload: { note: 2 } });
  t.notOk('versions' in at2.json());
  t.notOk('latestRevision' in at2.json(), 'the answer depends on its version alone');
  t.equal(at2.headers['matchlog-latest-revision'], '4', 'the current version is named beside it');
  t.equal(at2.headers.link, '</api/matches/hist>; rel="latest-version"');
  const current = (await app.inject({ method: 'GET', url: '/api/matches/hist' })).json();
  t.equal(current.payload.note, 4);
  t.equal(at2.json().createdAt, current.createdAt);
  t.equal((await app.inject({ method: 'GET', url: '/api/matches/hist?revision=5' })).statusCode, 404);
  t.match((await app.inject({ method: 'GET', url: '/api/matches/hist?revision=5' })).json().message, /no revision 5; the latest is 4/);
  t.equal((await app.inject({ method: 'GET', url: '/api/matches/hist?revision=-1' })).statusCode, 400);
  t.equal((await app.inject({ method: 'GET', url: '/api/matches/hist?revision=two' })).statusCode, 400);
});

t.test('pages: "updated N times" links to a readable timeline; old versions are viewable', async (t) => {
  const { app } = await startTestApp(t);
  for (const payload of versions(8)) await app.inject({ method: 'PUT', url: '/api/matches/hist', headers: json, payload });
  const page = await app.inject({ method: 'GET', url: '/match/hist' });
  t.match(page.body, /<a href="\/match\/hist\/history">updated 7 times<\/a>, last <time/);
  const timeline = await app.inject({ method: 'GET', url: '/match/hist/history' });
  t.equal(timeline.statusCode, 200);
  t.match(timeline.headers['content-security-policy'], /default-src 'none'/);
  t.match(timeline.body, /History of Lakeside Herons vs Old Harbour Owls/);
  t.equal((timeline.body.match(/<li>\n<div class="when">/g) ?? []).length, 8, 'a card per event');
  t.match(
    timeline.body,
    /<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z" data-local="datetime">\w{3}, \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC<\/time>/,
    'times readable without script, localised by it',
  );
  t.match(timeline.body, /<script src="\/assets\/live\.js" defer><\/script>/);
  t.match(timeline.body, /score 1:0 → 1:0|Set 1 16–8 → 17–8/);
  t.match(timeline.body, /href="\/match\/hist\?revision=3"/);
  const old = await app.inject({ method: 'GET', url: '/match/hist?revision=3' });
  t.equal(old.statusCode, 200);
  t.match(old.body, /as it was at revision 3/);
  t.match(old.body, /<td class="num[^"]*">13<\/td>/, 'the old set score');
  t.equal((await app.inject({ method: 'GET', url: '/match/hist?revision=99' })).statusCode, 404);
  t.equal((await app.inject({ method: 'GET', url: '/match/nope/history' })).statusCode, 404);
});
