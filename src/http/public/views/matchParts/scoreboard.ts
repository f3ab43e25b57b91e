import { clip } from '../../../../domain/clippedText.js';
import type { MatchSummary, TeamSummary } from '../../../../domain/matchPayload.js';
import { sportOf } from '../../../../domain/statVocabulary.js';
import { html, type SafeHtml } from '../../../views/html.js';
import { NAME_SHOWN, SHORT_SHOWN } from '../../../views/renderCaps.js';
import { goalsAndCards } from '../matchFlow.js';
import { SHOWN_STATUS_WORDS } from '../matchStatus.js';
import { timeTag } from '../timeText.js';
import { goalsUnderScore } from './goalsUnderScore.js';
import { liveFacts } from './liveFacts.js';
import { awayShort, homeShort, type MatchPageView, scoreText, shownLines, statusOf, teamName } from './matchPageView.js';

/** The state as a badge; none for a status matchlog does not know ("available"). */
function statusBadge(view: MatchPageView): SafeHtml | string {
  const shown = statusOf(view);
  if (shown === null) return '';
  const s = view.summary;
  const current = (shown === 'live' || shown === 'then') && s.current ? html` · ${s.current}` : '';
  // The game clock (basketball) or minute (football) while live, as broadcasters show it beside the period.
  const clock = shown === 'live' && s.live?.clock ? html` · <span class="clock">${s.live.clock}</span>` : '';
  return html`<span class="badge ${shown}">${SHOWN_STATUS_WORDS[shown]}${current}${clock}</span>`;
}

/** Football: how many players each side had sent off (a red card, or a second yellow), so a reader sees 11 v 10. */
function sendingsOff(s: MatchSummary): { home: number; away: number } {
  const off = { home: 0, away: 0 };
  if (sportOf(s.sport) !== 'football' || s.actionCount === 0) return off;
  for (const e of goalsAndCards(s.actions())) if (e.kind === 'redCard' || e.kind === 'secondYellow') off[e.side] += 1;
  return off;
}

/** Red cards beside a team's name, as broadcasters show a side down to ten. */
function sentOffMark(count: number): SafeHtml | string {
  if (count === 0) return '';
  const cards = Array.from({ length: Math.min(count, 5) }, () => html`<span class="card redCard"></span>`);
  return html`<span class="sent-off" role="img" aria-label="${count} ${count === 1 ? 'player' : 'players'} sent off">${cards}</span>`;
}

export function scoreboard(view: MatchPageView): SafeHtml {
  const s = view.summary;
  const off = sendingsOff(s);
  const team = (t: TeamSummary, side: 'home' | 'away', fallback: string) => {
    const name = teamName(t.name, fallback);
    const short = side === 'home' ? homeShort(s) : awayShort(s);
    const shown = clip(short, SHORT_SHOWN);
    // Its length (a class chars-4 to chars-16) lets the short name shrink to fit its column on a phone, never overflowing it.
    return html`<div class="team ${side}"><span class="name">${name}</span>\
${short !== name ? html`<span class="short chars-${Math.max([...shown].length, 4)}" aria-hidden="true">${shown}</span>` : ''}${sentOffMark(off[side])}</div>`;
  };
  const unit = s.scoreUnit === 'sets' ? 'sets' : s.scoreUnit === 'goals' ? 'goals' : s.scoreUnit === 'points' ? 'points' : '';
  // A match announced ahead says when it starts (issue 61: schedules).
  const when = s.startedAt ? (s.status === 'scheduled' ? html`Starts ${timeTag(s.startedAt)}` : timeTag(s.startedAt)) : '';
  const meta = [s.competition, s.category].filter((x): x is string => x !== null);
  return html`<section class="scoreboard" aria-label="Score">
<div class="meta">${statusBadge(view)}${meta.length > 0 ? html`<span>${meta.join(' · ')}</span>` : ''}</div>
<div class="board">
${team(s.home, 'home', 'Home')}
<div class="score" data-testid="score" aria-label="${unit ? `score in ${unit}` : 'score'}">\
<span>${scoreText(s.home.score)}</span><span class="colon"> : </span><span>${scoreText(s.away.score)}</span></div>
${team(s.away, 'away', 'Away')}
</div>
${liveFacts(view)}
${sportOf(s.sport) === 'football' ? goalsUnderScore(view) : ''}
${
  unit === 'sets' && s.lines.length > 0
    ? html`<p class="sets-inline">\
${shownLines(s).map((l) => html`<span class="${l.label === s.current ? 'current' : ''}">${scoreText(l.home)}–${scoreText(l.away)}</span>`)}</p>`
    : ''
}
<p class="where muted">${[s.venue ? html`<span>${clip(s.venue, NAME_SHOWN)}</span>` : '', when ? html`<span>${when}</span>` : '']
    .filter(Boolean)
    .map((part, i) => (i === 0 ? part : html` · ${part}`))}</p>
</section>`;
}
