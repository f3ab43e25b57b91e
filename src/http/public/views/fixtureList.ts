import { resultOf } from '../../../domain/seasonRecord.js';
import { html, type SafeHtml } from '../../views/html.js';
import type { ListedMatch } from '../publicClubs.js';
import { SHOWN_STATUS_WORDS } from './matchStatus.js';
import { timeTag } from './timeText.js';

const score = (n: number | null) => (n === null ? '–' : String(n));

/**
 * One match in a list: when, who against whom, the score or state, W/D/L for the team; the whole
 * line links to its page (an announced fixture has none yet).
 */
function fixture(match: ListedMatch, withTeam: boolean): SafeHtml {
  const result = resultOf(match);
  const scored = match.status !== 'scheduled' && (match.home.score !== null || match.away.score !== null);
  const badge = match.shown === null || match.shown === 'final' ? '' : html` <span class="badge ${match.shown}">${SHOWN_STATUS_WORDS[match.shown]}</span>`;
  const open = match.announced ? html`<div class="row">` : html`<a href="/match/${encodeURIComponent(match.matchId)}">`;
  const close = match.announced ? html`</div>` : html`</a>`;
  return html`<li class="fixture${match.shown === 'live' ? ' live' : ''}">${open}\
<span class="when">${match.startedAt === null ? 'Date not given' : timeTag(match.startedAt)}${withTeam ? html` · ${match.teamName}` : ''}</span>\
<span class="teams"><span class="home${match.side === 'home' ? ' ours' : ''}">${match.home.name ?? 'Home'}</span>\
<span class="score">${scored ? `${score(match.home.score)}–${score(match.away.score)}` : 'vs'}</span>\
<span class="away${match.side === 'away' ? ' ours' : ''}">${match.away.name ?? 'Away'}</span></span>\
<span class="state">${badge}${result === null ? '' : html` <span class="result r${result}" title="${RESULT_WORDS[result]}">${result}</span>`}\
${match.status === 'scheduled' && match.venue ? html` <span class="venue">${match.venue}</span>` : ''}</span>${close}</li>`;
}

const RESULT_WORDS = { W: 'Won', D: 'Drawn', L: 'Lost' } as const;

/** A list of matches, or what to say when there is none. */
export function fixtureList(label: string, matches: ListedMatch[], empty: string, withTeam = false): SafeHtml {
  if (matches.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<ul class="fixtures" aria-label="${label}">${matches.map((match) => fixture(match, withTeam))}</ul>`;
}
