import type { Team } from '../../../domain/club.js';
import { FIXTURE_CSV_MAX_CHARS, FIXTURE_CSV_MAX_ROWS } from '../../../domain/fixtureCsv.js';
import { type Fixture, localDateTime, VENUE_MAX } from '../../../domain/fixtures.js';
import { TEAM_NAME_MAX } from '../../../domain/clubIds.js';
import { html, type SafeHtml } from '../../views/html.js';
import { csrfField, dashboardPage, type Frame, notice, scrollRegion } from './frame.js';

/** The fields of a fixture; `prefix` keeps ids unique when a page holds several forms. */
function fixtureFields(prefix: string, zone: string, fixture: Fixture | null): SafeHtml {
  const local = fixture === null ? { date: '', time: '' } : localDateTime(fixture);
  const side = fixture?.homeAway ?? 'home';
  return html`<label>Opponent <input type="text" name="opponent" required maxlength="${TEAM_NAME_MAX}" value="${fixture?.opponent ?? ''}"></label>
<label>Date <input type="date" name="date" required value="${local.date}"></label>
<label>Start time <input type="time" name="time" required value="${local.time}"></label>
<label>Time zone <input type="text" name="timeZone" required maxlength="64" value="${fixture?.timeZone ?? zone}" data-own-zone \
placeholder="Europe/Amsterdam" aria-describedby="${prefix}-zone-hint"></label>
<p class="hint" id="${prefix}-zone-hint">The date and time are read in this zone (an IANA name such as Europe/Amsterdam); \
calendars show them in each reader's own.</p>
<label>Venue <input type="text" name="venue" maxlength="${VENUE_MAX}" value="${fixture?.venue ?? ''}"></label>
<fieldset class="choices"><legend>Home or away</legend>
<label class="tick"><input type="radio" name="homeAway" value="home"${side === 'home' ? html` checked` : ''}> Home</label>
<label class="tick"><input type="radio" name="homeAway" value="away"${side === 'away' ? html` checked` : ''}> Away</label></fieldset>
<label>Match id in the scoring app (optional) <input type="text" name="matchId" maxlength="128" value="${fixture?.matchId ?? ''}" \
aria-describedby="${prefix}-match-hint"></label>
<p class="hint" id="${prefix}-match-hint">Once the app syncs a match with this id into the team, the match is listed in the fixture's place.</p>`;
}

function fixtureRow(frame: Frame, teamId: string, fixture: Fixture): SafeHtml {
  const local = localDateTime(fixture);
  const when = `${local.date} ${local.time} (${fixture.timeZone})`;
  const which = `against ${fixture.opponent} on ${local.date}`;
  const actions = fixture.cancelled
    ? html`<span class="muted">Cancelled</span>`
    : html`<details><summary>Change<span class="visually-hidden"> ${which}</span></summary>
<form method="post" action="/dashboard/teams/${teamId}/fixtures/${fixture.fixtureId}" class="fixture">${csrfField(frame.csrfToken)}
${fixtureFields(`f-${fixture.fixtureId}`, fixture.timeZone, fixture)}
<button type="submit">Save the change</button></form></details>
<form method="post" action="/dashboard/teams/${teamId}/fixtures/${fixture.fixtureId}/cancel" class="inline">${csrfField(frame.csrfToken)}
<button type="submit" class="quiet">Cancel this fixture<span class="visually-hidden"> ${which}</span></button></form>`;
  return html`<tr${fixture.cancelled ? html` class="cancelled"` : ''}><td>${when}</td><td>${fixture.homeAway === 'home' ? 'Home' : 'Away'}</td>\
<td>${fixture.opponent}</td><td>${fixture.venue}</td><td>${fixture.matchId === null ? '' : html`<code>${fixture.matchId}</code>`}</td><td>${actions}</td></tr>`;
}

/** Teams → a team → Fixtures: the team's announced fixtures, a form for one more, and a CSV import. */
export function renderFixturesPage(
  frame: Frame,
  team: Team,
  fixtures: Fixture[],
  messages: { info: string | null; error: string | null },
  csv: string,
): string {
  const zone = fixtures.at(-1)?.timeZone ?? '';
  return dashboardPage(
    frame,
    `Fixtures of ${team.name}`,
    html`<h1>Fixtures of ${team.name}</h1>
${notice(messages.info)}
${notice(messages.error, 'error')}
<p>Matches you announce here are listed under the team's next matches on its public page, in its calendar feed and its Atom feed. \
They are not matches: the scoring app still records and syncs each match.</p>
${
  fixtures.length === 0
    ? html`<p class="muted">No fixture announced yet.</p>`
    : scrollRegion(
        'fixtures',
        html`<table class="fixtures"><thead><tr><th>Starts</th><th>Side</th><th>Opponent</th><th>Venue</th><th>Match id</th><th></th></tr></thead>
<tbody>${fixtures.map((fixture) => fixtureRow(frame, team.teamId, fixture))}</tbody></table>`,
      )
}
<h2>Announce a fixture</h2>
<form method="post" action="/dashboard/teams/${team.teamId}/fixtures" class="fixture">${csrfField(frame.csrfToken)}
${fixtureFields('new', zone, null)}
<button type="submit">Announce</button></form>
<h2>Import a CSV</h2>
<form method="post" action="/dashboard/teams/${team.teamId}/fixtures/import" class="fixture">${csrfField(frame.csrfToken)}
<label>Fixtures, one per row after a header row <textarea name="csv" rows="8" required maxlength="${FIXTURE_CSV_MAX_CHARS}" \
aria-describedby="csv-hint">${csv}</textarea></label>
<p class="hint" id="csv-hint">Paste it from a spreadsheet saved as CSV, comma or semicolon separated. The header names the columns: \
<code>date,time,opponent,venue,home_away</code> and optionally <code>match_id</code>. Dates as 2026-12-05, times as 09:30, \
home_away as home or away. At most ${FIXTURE_CSV_MAX_ROWS} rows; if any row is wrong, nothing is imported and the row is named.</p>
<label>Time zone of the times <input type="text" name="timeZone" required maxlength="64" value="${zone}" data-own-zone placeholder="Europe/Amsterdam"></label>
<button type="submit">Import</button></form>
<p><a href="/dashboard/teams">Back to Teams</a></p>`,
  );
}
