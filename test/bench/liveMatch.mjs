// A volleyball match as a scoring app uploads it live: a full generated match
// (test/fixtures/generate.mjs) cut after each rally, with the running score, sets, sets won,
// status and the box score's counts as they stood then. Upload k holds k rallies (0: the
// line-ups before the first serve), so each upload adds one rally and moves the score.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const generator = fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url));

/** `count` distinct full volleyball matches (one generator process). */
export function fullMatches(count, seed = 1) {
  const text = execFileSync(process.execPath, [generator, '--sport', 'volleyball', '--seed', String(seed), '--count', String(count)], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const matches = JSON.parse(text);
  return Array.isArray(matches) ? matches : [matches];
}

/** Counts the box score can tell from the actions alone (digs are not in the actions). */
function countStats(actions) {
  const stats = new Map();
  const bump = (playerId, key) => {
    const s = stats.get(playerId) ?? {};
    s[key] = (s[key] ?? 0) + 1;
    stats.set(playerId, s);
  };
  for (const action of actions) {
    if (action.skill === 'serve') {
      if (action.evaluation === '#') bump(action.playerId, 'aces');
      else if (action.evaluation === '=') bump(action.playerId, 'serviceErrors');
    } else if (action.skill === 'attack') {
      bump(action.playerId, 'attacks');
      if (action.evaluation === '#') bump(action.playerId, 'kills');
      else if (action.evaluation === '=' || action.evaluation === '/') bump(action.playerId, 'attackErrors');
    }
  }
  return stats;
}

/**
 * The live versions of `match`: a function from the upload number k (0 … rallies) to the
 * payload text after k rallies, with `id` first; `rallies` is how many uploads follow the first.
 */
export function liveVersions(match, id) {
  const ends = [];
  match.actions.forEach((action, i) => {
    if (action.type === 'point') ends.push(i + 1);
  });
  const version = (k) => {
    const rallies = Math.max(0, Math.min(k, ends.length));
    const actions = match.actions.slice(0, rallies === 0 ? 0 : ends[rallies - 1]);
    const last = actions.at(-1);
    const sets = match.sets.filter((set) => last !== undefined && set.set < last.set);
    if (last !== undefined) sets.push({ set: last.set, home: last.score.home, away: last.score.away });
    const finished = rallies === ends.length;
    const done = finished ? sets : sets.slice(0, -1);
    const setsWon = (side) => done.filter((set) => (side === 'home' ? set.home > set.away : set.away > set.home)).length;
    const stats = countStats(actions);
    return JSON.stringify({
      id,
      ...match,
      homeTeam: { ...match.homeTeam, setsWon: setsWon('home') },
      awayTeam: { ...match.awayTeam, setsWon: setsWon('away') },
      status: finished ? match.status : 'in_progress',
      sets,
      playerStats: match.playerStats.map((player) => ({ ...player, stats: stats.get(player.playerId) ?? {} })),
      actions,
    });
  };
  return { version, rallies: ends.length };
}
