import { Feed } from 'feed';
import type { Fixture } from '../../../domain/fixtures.js';
import type { ClubMatchDoc } from '../../../../projections/clubDashboard.js';

const STATE_WORDS = { final: 'Result', live: 'Live', scheduled: 'Announced' } as const;

function entryTitle(m: ClubMatchDoc): string {
  const home = m.home.name ?? 'Home';
  const away = m.away.name ?? 'Away';
  const state = STATE_WORDS[m.status ?? 'final'];
  if (m.status === 'scheduled') return `${state}: ${home} vs ${away}${m.startedAt ? `, ${m.startedAt.slice(0, 16).replace('T', ' ')} UTC` : ''}`;
  return `${state}: ${home} ${m.home.score ?? '–'}–${m.away.score ?? '–'} ${away}`;
}

/**
 * A team's results and schedule changes as an Atom feed: one entry per match as last synced, its
 * id naming the match and the sync's revision, so a new result or a moved start time is a new
 * entry that feed readers show; newest first.
 */
export function teamAtomFeed(options: {
  title: string;
  self: string;
  page: string;
  matchUrl: (id: string) => string;
  matches: ClubMatchDoc[];
  teamName: string;
  fixtures: Fixture[];
}): string {
  const newest = [...options.matches.map((m) => m.syncedAt), ...options.fixtures.map((f) => f.changedAt)].sort().at(-1) ?? '1970-01-01T00:00:00.000Z';
  const feed = new Feed({
    id: options.page,
    title: options.title,
    link: options.page,
    updated: new Date(newest),
    generator: 'matchlog',
    feedLinks: { atom: options.self },
  });
  for (const m of [...options.matches].sort((a, b) => b.syncedAt.localeCompare(a.syncedAt))) {
    const url = options.matchUrl(m.matchId);
    feed.addItem({
      title: entryTitle(m),
      id: `${url}#revision-${m.revision}`,
      link: url,
      date: new Date(m.syncedAt),
      description: [m.venue, m.startedAt].filter((x) => x !== null && x !== undefined).join(' · '),
    });
  }
  // A fixture's entry names its version (the calendar's SEQUENCE): a moved time or a cancellation is a new entry.
  for (const f of [...options.fixtures].sort((a, b) => b.changedAt.localeCompare(a.changedAt))) {
    const [home, away] = f.homeAway === 'home' ? [options.teamName, f.opponent] : [f.opponent, options.teamName];
    const state = f.cancelled ? 'Cancelled' : f.sequence === 0 ? 'Announced' : 'Changed';
    feed.addItem({
      title: `${state}: ${home} vs ${away}, ${f.startsAt.slice(0, 16).replace('T', ' ')} UTC`,
      id: `${options.page}#fixture-${f.fixtureId}-${f.sequence}`,
      link: options.page,
      date: new Date(f.changedAt),
      description: [f.venue, f.startsAt].filter((x) => x !== '').join(' · '),
    });
  }
  return feed.atom1();
}
