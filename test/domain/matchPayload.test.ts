import { readFileSync } from 'node:fs';
import t from 'tap';
import { durationSeconds, formatClockSeconds, summarizeMatch } from '../../src/domain/matchPayload.js';
import { fullMatches } from '../fixtures/liveMatch.mjs';

const load = (name: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));

t.test('NBA live data: strings as numbers, periods per team, players inside teams, ISO clocks', async (t) => {
  const s = summarizeMatch(load('nba-live-game.json'));
  t.equal(s.sport, 'basketball');
  t.same([s.home.name, s.home.score, s.home.short], ['Indiana Pacers', 116, 'IND'], 'the score "116" is a number');
  t.same([s.away.name, s.away.score, s.away.short], ['Boston Celtics', 108, 'BOS']);
  t.same(s.lines, [
    { label: 'Q1', home: 31, away: 25 },
    { label: 'Q2', home: 27, away: 30 },
    { label: 'Q3', home: 30, away: 24 },
    { label: 'Q4', home: 28, away: 29 },
  ]);
  t.equal(s.status, 'final');
  t.equal(s.venue, 'Gainbridge Fieldhouse, Indianapolis');
  t.equal(s.startedAt, '2026-01-07T00:30:00Z');
  t.equal(s.players.length, 3);
  const hali = s.players.find((p) => p.name === 'Tyrese Haliburton');
  t.equal(hali?.team, 'home');
  t.equal(hali?.number, '0');
  t.equal(hali?.stats.points, 21);
  t.equal(hali?.stats.minutes, 34.2, 'PT34M12.00S is 34.2 minutes');
  const three = s.actions()[1];
  t.same([three?.clock, three?.phase, three?.team, three?.score], ['11:43', 'Q1', 'home', '3–0'], 'team by id, clock as m:ss');
  t.equal(three?.description, "T. Haliburton 26' 3PT Jump Shot (3 PTS)", "the feed's own description is kept");
  t.equal(s.recognised, true);
});

t.test('StatsBomb-style flat fields', async (t) => {
  const s = summarizeMatch(load('statsbomb-match.json'));
  t.same([s.home.name, s.home.score, s.away.name, s.away.score], ['Turkey', 0, 'Italy', 3]);
  t.equal(s.scoreUnit, 'goals');
  t.equal(s.competition, 'UEFA Euro');
  t.equal(s.season, '2020');
  t.equal(s.venue, 'Stadio Olimpico');
  t.equal(s.startedAt, '2021-06-11T21:00:00.000');
  t.same(s.lines, [{ label: '2nd half', home: 0, away: 3 }], 'goals by half from the running score');
  t.equal(s.actions()[1]?.clock, "66'", 'minute 65, second 42 is the 66th minute');
  t.equal(s.actions()[1]?.description, 'Goal', 'a shot whose result is Goal reads "Goal"');
  t.equal(s.players[0]?.name, 'Ciro Immobile');
  t.equal(s.players[0]?.number, '17');
  t.equal(s.players[0]?.stats.goals, 1);
  t.notOk('jersey_number' in (s.players[0]?.stats ?? {}), 'identity fields are not stats');
});

t.test('numbers as strings, durations, scouting codes in words', async (t) => {
  const s = summarizeMatch({
    sport: 'volleyball',
    status: 'in progress',
    homeTeam: { name: 'Herons', setsWon: '2' },
    awayTeam: { name: 'Owls', setsWon: '2' },
    sets: [{ home: '25', away: '20' }, [19, 25], { home: 25, away: 23 }, { home: 22, away: 25 }, { home: 8, away: 6 }],
    actions: [{ set: 5, skill: 'attack', evaluation: '#', team: 'home', score: { home: '8', away: '6' } }],
  });
  t.same([s.home.score, s.away.score, s.scoreUnit], [2, 2, 'sets']);
  t.same(s.lines[0], { label: 'Set 1', home: 25, away: 20 });
  t.equal(s.lines.length, 5);
  t.equal(s.status, 'live');
  t.equal(s.current, 'Set 5');
  t.equal(s.actions()[0]?.description, 'Attack: kill');
  t.equal(s.actions()[0]?.score, '8–6');
  t.equal(durationSeconds('PT11M43.00S'), 703);
  t.equal(durationSeconds('PT5M32S'), 332);
  t.equal(durationSeconds('PT1H2M'), 3720);
  t.equal(durationSeconds('11:43'), null);
  t.equal(durationSeconds('P'), null);
  t.equal(formatClockSeconds(703), '11:43');
  t.equal(formatClockSeconds(0), '0:00');
});

t.test('a payload the reader understands nothing of says so, and nothing throws', async (t) => {
  for (const payload of [null, 42, 'x', [], {}, { foo: 1, bar: { baz: [1, 2] } }, { homeTeam: [], sets: 'x', actions: {}, game: 7 }]) {
    const s = summarizeMatch(payload);
    t.equal(s.recognised, false, JSON.stringify(payload));
  }
  t.equal(summarizeMatch({ home_score: 1 }).recognised, true);
});

t.test('the play-by-play is worded on first read only, and counted without wording it', async (t) => {
  for (const name of ['nba-live-game.json', 'statsbomb-match.json']) {
    const s = summarizeMatch(load(name));
    const count = s.actionCount;
    t.ok(count > 0, `${name}: counted`);
    const first = s.actions();
    t.equal(first.length, count, `${name}: as many lines as counted`);
    t.equal(s.actions(), first, `${name}: worded once, the same lines on every read`);
  }
  const mixed = summarizeMatch({ actions: [{ seq: 1, set: 1 }, 'not an action', null, { seq: 2, set: 2 }] });
  t.equal(mixed.actionCount, 2, 'only objects count');
  t.same(
    mixed.actions().map((a) => a.phase),
    ['Set 1', 'Set 2'],
  );
});

t.test("an action's line is worded when asked for, the same as in the whole list; its mark says what its line does of phase, score and clock", async (t) => {
  const odd = {
    sport: 'volleyball',
    actions: [
      { set: 1, score: { home: -0, away: 1 } },
      { set: 1, score: { home: 2.5, away: 1 }, clock: 'PT1M2.00S' },
      { set: 1, score: { home: '3', away: '1' } },
      { set: 1, homeScore: 1e21, awayScore: 2 },
      'not an action',
      { set: 1, score: { home: 4 }, clock: ' ' },
      { period: 2, scoreHome: 1, scoreAway: 0, minute: 3 },
    ],
  };
  const payloads = [
    ...['nba-live-game.json', 'nba-playbyplay.json', 'statsbomb-events.json', 'statsbomb-match.json', 'football-long-names.json'].map(load),
    ...fullMatches(6),
    odd,
  ];
  const RUNNING = /^(\d+)–(\d+)$/;
  for (const [n, payload] of payloads.entries()) {
    const lazy = summarizeMatch(payload);
    const whole = summarizeMatch(payload).actions();
    const lines = Array.from({ length: lazy.actionCount }, (_, i) => lazy.actionAt(lazy.actionCount - 1 - i)).reverse();
    t.same(lines, whole, `payload ${n}: each line as the whole list has it, asked for in any order`);
    t.equal(lazy.actions()[0], lines[0], 'the whole list reuses the lines worded');
    // Made from the entries before any line is worded, and from the lines once all are (the entries let go then).
    const marks = summarizeMatch(payload)
      .actionMarks()
      .map(({ phase, home, away, clocked }) => ({ phase, home, away, clocked }));
    t.same(lazy.actionMarks(), marks, `payload ${n}: the same marks from the lines`);
    const fromLines = whole.map((a) => {
      const m = a.score === null ? null : RUNNING.exec(a.score);
      return { phase: a.phase, home: m === null ? null : Number(m[1]), away: m === null ? null : Number(m[2]), clocked: a.clock !== null };
    });
    t.same(marks, fromLines, `payload ${n}: marks agree with the lines`);
  }
});

t.test("a player's stats: all numbers as sent, else only the numeric leaves", async (t) => {
  const s = summarizeMatch({
    playerStats: [
      { playerId: 'a', stats: { kills: 3, digs: 0 } },
      { playerId: 'b', stats: { kills: '4', note: 'tired', attack: { errors: 1 }, minutes: 'PT12M30S', blocks: Number.NaN } },
    ],
    actions: [{ set: 1 }, 'not an action', null, { set: 2 }],
  });
  t.same(s.players[0]?.stats, { kills: 3, digs: 0 });
  t.same(s.players[1]?.stats, { kills: 4, 'attack.errors': 1, minutes: 12.5 }, 'numeric strings, nested groups and durations read; text and NaN left out');
  t.equal(s.actionCount, 2, 'only objects are actions');
  t.same(
    s.actions().map((line) => line.phase),
    ['Set 1', 'Set 2'],
  );
});

t.test('raw NBA play-by-play on its own: sides from location and teamTricode, the score from the last action, names from the feed', async (t) => {
  const s = summarizeMatch(load('nba-playbyplay.json'));
  t.equal(s.sport, 'basketball');
  t.same([s.home.name, s.home.short, s.home.score], ['MIA', 'MIA', 117], 'location "h" is the home side; the score header is the last running score');
  t.same([s.away.name, s.away.short, s.away.score], ['NYK', 'NYK', 116]);
  t.equal(s.scoreUnit, 'points');
  t.same(
    s.lines.map((l) => [l.label, l.home, l.away]),
    [
      ['Q1', 28, 31],
      ['Q2', 30, 27],
      ['Q3', 27, 30],
      ['Q4', 32, 28],
    ],
    'the line score adds up to the header',
  );
  const made = s.actions().find((a) => a.description.includes('PTS') && a.team === 'away');
  t.ok(made?.playerName?.match(/^[A-Z]\. \S/), `the action names its player as the feed does ("${made?.playerName}")`);
  t.notOk(
    s.actions().some((a) => a.playerId === '0'),
    'personId 0 (a team action) is no player',
  );
  t.ok(
    s.actions().every((a) => a.team === null || a.team === 'home' || a.team === 'away'),
    'every team action is on a side',
  );
});

t.test('StatsBomb events: team.name, player.name, shot.outcome "Goal", own goals, cards, minute marks', async (t) => {
  const s = summarizeMatch(load('statsbomb-events.json'));
  t.same([s.home.name, s.home.score, s.away.name, s.away.score], ['Turkey', 0, 'Italy', 3]);
  t.equal(s.status, null, 'match_status "available" is no match state');
  const actions = s.actions();
  const goals = actions.filter((a) => a.description === 'Goal');
  t.same(
    goals.map((a) => [a.team, a.playerName, a.clock, a.event]),
    [
      ['away', 'Ciro Immobile', "66'", 'goal'],
      ['away', 'Lorenzo Insigne', "79'", 'goal'],
    ],
    'a shot whose outcome is Goal reads "Goal", on the side its team.name names, at the minute being played',
  );
  const saved = actions.find((a) => a.playerName === 'Lorenzo Insigne' && a.event === null);
  t.equal(saved?.description, 'Shot (saved)', 'other shots say their outcome');
  const own = actions.find((a) => a.event === 'ownGoal');
  t.same([own?.team, own?.playerName, own?.clock, own?.description], ['home', 'Merih Demiral', "53'", 'Own goal']);
  t.same(
    actions.filter((a) => a.event === 'yellowCard').map((a) => [a.playerName, a.clock]),
    [
      ['Merih Demiral', "45'"],
      ['Burak Yılmaz', "90+2'"],
    ],
    'cards from foul_committed and bad_behaviour, stoppage time as 90+2',
  );
});

t.test('football: starters and bench, minute marks', async (t) => {
  const s = summarizeMatch(load('football-long-names.json'));
  t.equal(s.players.filter((p) => p.team === 'home' && p.starter === true).length, 11);
  t.equal(s.players.filter((p) => p.team === 'home' && p.starter === false).length, 4);
  t.same(
    s
      .actions()
      .filter((a) => a.event === 'goal')
      .map((a) => [a.team, a.clock]),
    [
      ['home', "23'"],
      ['away', "58'"],
      ['home', "67'"],
    ],
    'a minute without seconds is the mark itself',
  );
});
