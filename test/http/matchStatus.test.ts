import { readFileSync } from 'node:fs';
import t from 'tap';
import { summarizeMatch } from '../../src/domain/matchPayload.js';
import { renderMatchPage } from '../../src/http/public/views/matchPage.js';
import { isQuiet, LIVE_WINDOW_MS, shownStatus } from '../../src/http/public/views/matchStatus.js';

const view = (payload: unknown, extra: { quiet?: boolean; asOf?: { revision: number; latestRevision: number } } = {}) => ({
  id: 'm1',
  createdAt: '2018-06-11T19:00:00Z',
  updatedAt: '2018-06-11T21:00:00Z',
  protected: false,
  revision: 1,
  versions: 2,
  publicUrl: 'http://matchlog.test/match/m1',
  summary: summarizeMatch(payload),
  ...extra,
});
const live = {
  sport: 'volleyball',
  status: 'in_progress',
  homeTeam: { name: 'Home', setsWon: 1 },
  awayTeam: { name: 'Away', setsWon: 0 },
  sets: [
    [25, 20],
    [10, 8],
  ],
};
const badge = (page: string) => /<span class="badge ([^"]*)">([^<]*)/.exec(page)?.slice(1, 3) ?? null;

t.test('live only while the payload says so and it was updated within the window', async (t) => {
  t.equal(shownStatus('live', { quiet: false, old: false }), 'live');
  t.equal(shownStatus('live', { quiet: true, old: false }), 'quiet');
  t.equal(shownStatus('live', { quiet: false, old: true }), 'then', 'an old revision is never live');
  t.equal(shownStatus('final', { quiet: true, old: true }), 'final');
  t.equal(shownStatus(null, { quiet: false, old: false }), null);
  const now = Date.parse('2026-11-26T12:00:00Z');
  t.notOk(isQuiet(new Date(now - LIVE_WINDOW_MS + 1000).toISOString(), now), 'updated just inside 3 h: still live');
  t.ok(isQuiet(new Date(now - LIVE_WINDOW_MS - 1000).toISOString(), now), 'past 3 h: quiet');
});

t.test('the page says it: a match left "in progress" since 2018, an old revision, an unknown status', async (t) => {
  t.same(badge(renderMatchPage(view(live))), ['live', 'Live · Set 2']);
  const stale = renderMatchPage(view(live, { quiet: true }));
  t.same(badge(stale), ['quiet', 'No recent updates']);
  t.match(stale, /data-status="quiet"/, 'the live bar is told it is not live');
  t.notMatch(stale, /<meta property="og:description" content="Live/, 'the link preview does not say live either');
  t.same(badge(renderMatchPage(view(live, { asOf: { revision: 1, latestRevision: 5 } }))), ['then', 'In play then · Set 2']);
  const statsbomb = JSON.parse(readFileSync(new URL('../fixtures/statsbomb-events.json', import.meta.url), 'utf8')) as unknown;
  t.equal(badge(renderMatchPage(view(statsbomb))), null, 'match_status "available": no badge');
});
