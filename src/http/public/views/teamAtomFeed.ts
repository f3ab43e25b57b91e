import { Feed } from 'feed';
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
export function teamAtomFeed(options: { title: string; self: string; page: string; matchUrl: (id: string) => string; matches: ClubMatchDoc[] }): string {
  const newest =
    options.matches
      .map((m) => m.syncedAt)
      .sort()
      .at(-1) ?? '1970-01-01T00:00:00.000Z';
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
  return feed.atom1();
}
