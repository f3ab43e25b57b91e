import t from 'tap';
import { clubIdOfSlug, clubSlug, slugOf, teamSlug } from '../../src/domain/publicSlugs.js';
import { seasonLeaders } from '../../src/domain/seasonLeaders.js';
import { type RecordMatch, resultOf, seasonRecord } from '../../src/domain/seasonRecord.js';

const volley = (side: 'home' | 'away' | null, home: number, away: number, status: RecordMatch['status'] = 'final'): RecordMatch => ({
  side,
  home: { score: home },
  away: { score: away },
  scoreUnit: 'sets',
  status,
});

t.test('a season record counts final matches whose side is known: W/D/L and the score unit for and against', async (t) => {
  const matches = [
    volley('home', 3, 1),
    volley('away', 3, 2),
    volley('away', 0, 3),
    volley(null, 3, 0),
    volley('home', 1, 1, 'live'),
    volley('home', 0, 0, 'scheduled'),
  ];
  t.same(seasonRecord(matches), { played: 3, won: 2, drawn: 0, lost: 1, unit: 'sets', for: 3 + 2 + 3, against: 1 + 3 + 0 });
  t.equal(resultOf(volley('home', 2, 2)), 'D');
  t.equal(resultOf(volley('home', 3, 1, 'live')), null, 'a live match has no result yet');
  const football: RecordMatch = { side: 'home', home: { score: 2 }, away: { score: 2 }, scoreUnit: 'goals', status: 'final' };
  t.same(seasonRecord([football]), { played: 1, won: 0, drawn: 1, lost: 0, unit: 'goals', for: 2, against: 2 });
  t.same(seasonRecord([]), { played: 0, won: 0, drawn: 0, lost: 0, unit: null, for: 0, against: 0 });
});

t.test('leaders per sport stat: the top three over zero, by the sport vocabulary', async (t) => {
  const leaders = seasonLeaders('volleyball', [{ kills: 12, aces: 3 }, { kills: 20 }, { kills: 0, digs: 9 }, { kills: 5 }]);
  t.same(
    leaders.map((stat) => [stat.abbr, stat.leaders.map((l) => l.player)]),
    [
      ['K', [1, 0, 3]],
      ['SA', [0]],
      ['D', [2]],
    ],
  );
  t.same(seasonLeaders('curling', [{ stones: 3 }]), [], 'no leaders for a sport matchlog does not know');
});

t.test('slugs: words of the name, a club slug ends with its id', async (t) => {
  t.equal(slugOf('Lakeside VC — Ü14 Mädchen!'), 'lakeside-vc-u14-madchen');
  t.equal(clubSlug({ clubId: 'c000000000000001', name: 'Lakeside VC' }), 'lakeside-vc-c000000000000001');
  t.equal(clubIdOfSlug('lakeside-vc-c000000000000001'), 'c000000000000001');
  t.equal(clubIdOfSlug('c000000000000001'), 'c000000000000001');
  t.equal(clubIdOfSlug('lakeside'), null);
  const teams = [
    { teamId: 't1', name: 'U14 Girls' },
    { teamId: 't2', name: 'U14-girls' },
    { teamId: 't3', name: 'Seniors' },
  ];
  t.equal(teamSlug(teams[2]!, teams), 'seniors');
  t.equal(teamSlug(teams[0]!, teams), 't1', 'two teams with one slug are told apart by id');
});
