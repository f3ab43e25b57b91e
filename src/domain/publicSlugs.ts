/**
 * The addresses of a club's public pages: `/c/<club slug>` and `/c/<club slug>/<team slug>`. A
 * club's slug is its name's words then its id ("lakeside-vc-c0000000000000001"), so it is unique
 * and found without an index; a team's is its name's words, unique in its club (else its id).
 */
const CLUB_ID_IN_SLUG = /(?:^|-)([0-9a-z]{16})$/;

/** Lower-case ASCII words joined by hyphens: accents dropped, anything else a separator. */
export function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

export const clubSlug = (club: { clubId: string; name: string }) => [slugOf(club.name), club.clubId].filter((part) => part !== '').join('-');

/** The club id a club slug ends with, or null (any words before it are only for the reader). */
export const clubIdOfSlug = (slug: string): string | null => CLUB_ID_IN_SLUG.exec(slug)?.[1] ?? null;

/** A team's slug among its club's teams: its name's, or its id when another team's name gives the same. */
export function teamSlug(team: { teamId: string; name: string }, teams: readonly { teamId: string; name: string }[]): string {
  const slug = slugOf(team.name);
  const shared = teams.some((other) => other.teamId !== team.teamId && slugOf(other.name) === slug);
  return slug === '' || shared ? team.teamId : slug;
}
