import type { ExistingClub } from '../../../domain/club.js';
import { teamPublicity } from '../../../domain/club.js';
import { PRIVACY_LABELS, PRIVACY_LEVELS, type TeamPublicity } from '../../../domain/teamPublicity.js';
import { html, type SafeHtml } from '../../views/html.js';
import { csrfField, dashboardPage, type Frame, notice } from './frame.js';

/** One `<select>` with the chosen value selected. */
function choice(name: string, label: string, chosen: string, options: readonly (readonly [value: string, label: string])[]): SafeHtml {
  return html`<label>${label} <select name="${name}">${options.map(
    ([value, text]) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`,
  )}</select></label>`;
}

function teamForm(frame: Frame, teamId: string, teamName: string, publicity: TeamPublicity): SafeHtml {
  return html`<form method="post" action="/dashboard/teams/${teamId}/publicity" class="publicity">
<fieldset><legend>${teamName}</legend>
${csrfField(frame.csrfToken)}
<label class="tick"><input type="checkbox" name="publicPage" value="on"${publicity.publicPage ? html` checked` : ''}> Public team page</label>
${choice(
  'privacy',
  'Players shown as',
  publicity.privacy,
  PRIVACY_LEVELS.map((level) => [level, PRIVACY_LABELS[level]] as const),
)}
${choice('roster', 'Roster', publicity.roster, [
  ['hidden', 'Hidden'],
  ['shown', 'Shown'],
])}
${choice('indexing', 'Search engines', publicity.indexing, [
  ['noindex', 'Ask them not to index (noindex)'],
  ['index', 'May index'],
])}
<button type="submit">Save ${teamName}</button>
</fieldset></form>`;
}

/** Teams → Public pages: the club's page switch and each team's publicity and privacy for its players. */
export function renderPublicityPage(frame: Frame, club: ExistingClub, messages: { info: string | null; error: string | null }): string {
  const on = club.publicPage ?? false;
  return dashboardPage(
    frame,
    'Public pages',
    html`<h1>Public pages</h1>
${notice(messages.info)}
${notice(messages.error, 'error')}
<p>Nothing is public until you switch it on: the club page first, then each team. \
How players are named applies wherever the team's players appear publicly (team page, match pages, embeds, link cards, \
history, the API for anonymous readers); the log keeps what your app uploaded.</p>
<form method="post" action="/dashboard/teams/public-page" class="inline">${csrfField(frame.csrfToken)}
<input type="hidden" name="publicPage" value="${on ? 'off' : 'on'}">
<p>Club page: <strong>${on ? 'on' : 'off'}</strong> <button type="submit">${on ? 'Switch the club page off' : 'Switch the club page on'}</button></p>
</form>
${club.teams.length === 0 ? html`<p class="muted">No team yet: add one under <a href="/dashboard/teams">Teams</a>.</p>` : ''}
${club.teams.map((team) => teamForm(frame, team.teamId, team.name, teamPublicity(club, team.teamId)))}`,
  );
}
