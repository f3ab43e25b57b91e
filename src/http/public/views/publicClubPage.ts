import type { ErrorAnswer } from '../../errorHandling.js';
import { html } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import type { ListedMatch } from '../publicClubs.js';
import { fixtureList } from './fixtureList.js';
import { robotsTag } from './publicTeamPage.js';

export interface ClubPageView {
  clubName: string;
  teams: { name: string; path: string }[];
  upcoming: ListedMatch[];
  latest: ListedMatch[];
  /** Indexed only when every public team allows it. */
  noindex: boolean;
}

/** A club's public page: its public teams, latest results and next matches. */
export function renderClubPage(view: ClubPageView): string {
  return layout(
    view.clubName,
    html`<h1>${view.clubName}</h1>
<h2>Teams</h2>
${
  view.teams.length === 0
    ? html`<p class="muted">No team has a public page yet.</p>`
    : html`<ul class="teams-list">${view.teams.map((team) => html`<li><a href="${team.path}">${team.name}</a></li>`)}</ul>`
}
<h2>Next matches</h2>
${fixtureList('next matches', view.upcoming, 'No match announced.', true)}
<h2>Latest results</h2>
${fixtureList('latest results', view.latest, 'No match played yet.', true)}`,
    'club',
    { head: robotsTag(view.noindex) },
  );
}

/** The public pages' error page: a private or missing club or team is "Page not found". */
export function renderPublicErrorPage({ statusCode, title, message }: Pick<ErrorAnswer, 'statusCode' | 'title' | 'message'>): string {
  const heading = statusCode === 404 ? 'Page not found' : title;
  return layout(heading, html`<h1>${heading}</h1><p>${message}</p><p class="muted">HTTP ${statusCode}</p>`);
}
