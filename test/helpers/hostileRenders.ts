/**
 * Payloads inside the upload limits that are built to make a render large: one per cap of
 * docs/limits.md "Rendered pages". Deterministic; each is a few hundred KB to ~3 MB of JSON.
 */

const team = (side: 'home' | 'away', name = side === 'home' ? 'Wide Home' : 'Wide Away') => ({ name, score: 1 });

/** `players` players (half a side each) with `stats` stat names no other player has: 300 × 300 is 1.1 MB. */
export function wideBoxScore(players = 300, stats = 300, sport = 'volleyball'): Record<string, unknown> {
  return {
    sport,
    homeTeam: team('home'),
    awayTeam: team('away'),
    playerStats: Array.from({ length: players }, (_, p) => ({
      playerId: `p${p}`,
      name: `Player ${p}`,
      number: p,
      team: p % 2 === 0 ? 'home' : 'away',
      stats: Object.fromEntries(Array.from({ length: stats }, (_, s) => [`stat_${p}_${s}`, s])),
    })),
  };
}

/** Many players with a few stats each. */
export function manyPlayers(players = 10_000): Record<string, unknown> {
  return {
    sport: 'basketball',
    homeTeam: team('home'),
    awayTeam: team('away'),
    playerStats: Array.from({ length: players }, (_, p) => ({
      playerId: `p${p}`,
      name: `Player ${p}`,
      number: p,
      team: p % 2 === 0 ? 'home' : 'away',
      stats: { points: p % 30, assists: p % 7 },
    })),
  };
}

/** A long play-by-play in few periods, with running scores that swap the lead often. */
export function manyActions(actions = 36_000, periods = 4): Record<string, unknown> {
  let home = 0;
  let away = 0;
  return {
    sport: 'basketball',
    homeTeam: team('home'),
    awayTeam: team('away'),
    actions: Array.from({ length: actions }, (_, i) => {
      if (i % 3 === 0) home += 1;
      if (i % 3 === 1) away += i % 2 === 0 ? 2 : 1;
      return {
        seq: i + 1,
        period: 1 + Math.floor((i * periods) / actions),
        team: i % 2 === 0 ? 'home' : 'away',
        actionType: '2pt',
        shotResult: 'made',
        scoreHome: home,
        scoreAway: away,
      };
    }),
  };
}

/** Many sets, each with a line score and a few scored actions. */
export function manyPeriods(periods = 10_000): Record<string, unknown> {
  return {
    sport: 'volleyball',
    homeTeam: { name: 'Long Home', setsWon: 1 },
    awayTeam: { name: 'Long Away', setsWon: 1 },
    sets: Array.from({ length: periods }, (_, i) => ({ set: i + 1, home: 25, away: 20 + (i % 5) })),
    actions: Array.from({ length: periods * 3 }, (_, i) => ({
      set: 1 + Math.floor(i / 3),
      type: 'point',
      team: 'home',
      score: { home: i % 3, away: (i + 1) % 3 },
    })),
  };
}

/** Every displayed string 100 KB long (and full of characters that HTML escapes). */
export function longNames(length = 100_000): Record<string, unknown> {
  const long = (c: string) => `${c}&<"'`.repeat(Math.ceil(length / 5)).slice(0, length);
  return {
    sport: long('s'),
    homeTeam: { name: long('h'), shortName: long('H'), score: 1 },
    awayTeam: { name: long('a'), shortName: long('A'), score: 2 },
    venue: long('v'),
    competition: long('c'),
    status: long('live'),
    startedAt: long('2026'),
    arena: { arenaName: long('n'), arenaCity: long('y') },
    sets: [{ set: 1, home: 25, away: 20 }],
    playerStats: [
      { playerId: long('i'), name: long('p'), number: long('9'), position: long('o'), team: 'home', stats: { [long('k')]: 1, kills: 2 } },
      { playerId: 'x', number: 3, team: long('t'), stats: { digs: 1 } },
    ],
    actions: [
      { set: 1, team: long('t'), playerId: long('i'), description: long('d'), clock: long('c'), score: { home: 1, away: 0 } },
      { set: 1, team: 'home', playerId: 'x', skill: long('s'), evaluation: long('e'), score: { home: 1, away: 1 } },
    ],
  };
}
