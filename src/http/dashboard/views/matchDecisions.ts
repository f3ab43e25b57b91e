import type { ClubMatchDoc } from '../../../../projections/clubDashboard.js';
import { clip } from '../../../domain/clippedText.js';
import { html, type SafeHtml } from '../../views/html.js';
import { NAME_SHOWN } from '../../views/renderCaps.js';
import { csrfField } from './frame.js';

/** Where a decision's form sends the admin back to: fixed places, never a URL from the request. */
export const RETURN_TO = ['matches', 'match', 'sync'] as const;
export type ReturnTo = (typeof RETURN_TO)[number];

/** What the admin sees of one match's standing in the club's numbers. */
export interface MatchStanding {
  matchId: string;
  home: { name: string | null };
  away: { name: string | null };
  side: ClubMatchDoc['side'];
  excluded: boolean;
  /** The club's team the match was synced into, for "remember this name". */
  teamName?: string;
}

/** "Side unknown": one click says which side is the club's team (recorded in the club's stream). */
export function settleSideForm(csrfToken: string, match: MatchStanding, returnTo: ReturnTo): SafeHtml {
  const button = (side: 'home' | 'away', name: string | null) =>
    html`<button type="submit" name="side" value="${side}" class="quiet">\
${side === 'home' ? 'Home' : 'Away'}: ${clip(name ?? (side === 'home' ? 'home team' : 'away team'), NAME_SHOWN)}</button>`;
  return html`<form method="post" action="/dashboard/matches/${match.matchId}/side" class="inline settle" aria-label="which side is your team">
${csrfField(csrfToken)}<input type="hidden" name="returnTo" value="${returnTo}">
<span class="side-unknown">Side unknown: which is your team?</span> ${button('home', match.home.name)} ${button('away', match.away.name)}
<label class="remember"><input type="checkbox" name="remember" value="yes" checked> \
Remember the name I pick as a name of ${match.teamName === undefined ? 'your team' : clip(match.teamName, NAME_SHOWN)}: \
later matches with it are matched</label>
</form>`;
}

/** Leave a match out of players and stats (e.g. a flagged sync), or count it again. */
export function countingForm(csrfToken: string, match: MatchStanding, returnTo: ReturnTo): SafeHtml {
  return html`<form method="post" action="/dashboard/matches/${match.matchId}/counting" class="inline">
${csrfField(csrfToken)}<input type="hidden" name="returnTo" value="${returnTo}">
${
  match.excluded
    ? html`<span class="excluded">Excluded from players and stats</span> <button type="submit" name="counted" value="yes" class="quiet">Include again</button>`
    : html`<button type="submit" name="counted" value="no" class="quiet">Exclude from players and stats</button>`
}
</form>`;
}

/** Both controls as they apply: settle the side while unknown, then include or exclude; on the match's own page, the way to erase it. */
export function matchDecisionControls(csrfToken: string, match: MatchStanding, returnTo: ReturnTo): SafeHtml {
  const erase =
    returnTo === 'match'
      ? html`\n<p class="erase"><a href="/dashboard/matches/${match.matchId}/erase">Erase this match…</a> \
<small class="muted">(when a parent or player asks for their data to be removed)</small></p>`
      : '';
  return html`${match.side === null ? settleSideForm(csrfToken, match, returnTo) : ''}${countingForm(csrfToken, match, returnTo)}${erase}`;
}
