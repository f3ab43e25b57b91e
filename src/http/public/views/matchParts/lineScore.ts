import type { MatchSummary, ScoreLine, TeamSummary } from '../../../../domain/matchPayload.js';
import { sportOf } from '../../../../domain/statVocabulary.js';
import { html, type SafeHtml } from '../../../views/html.js';
import { more } from '../../../views/renderCaps.js';
import { awayShort, homeShort, scoreText, shownLines, teamName } from './matchPageView.js';

/** The score by set or period, as a table (the embed shows it too). */
export function lineScore(s: MatchSummary): SafeHtml | string {
  if (s.lines.length === 0) return '';
  const total = (side: 'home' | 'away') => s.lines.reduce((sum, l) => sum + (l[side] ?? 0), 0);
  const isSets = s.scoreUnit === 'sets';
  const head = (l: ScoreLine) =>
    html`<th class="num${l.label === s.current ? ' current' : ''}" scope="col"\
${l.label === s.current ? html` aria-current="true"` : ''}>${phaseHead(l.label)}</th>`;
  const won = (l: ScoreLine, side: 'home' | 'away') => l.home !== null && l.away !== null && (side === 'home' ? l.home > l.away : l.away > l.home);
  const lines = shownLines(s);
  // Whole names from 640 px, the short ones on phones.
  const teamCell = (side: 'home' | 'away', t: TeamSummary) => {
    const full = teamName(t.name, side === 'home' ? 'Home' : 'Away');
    const short = side === 'home' ? homeShort(s) : awayShort(s);
    return short === full ? full : html`<span class="full">${full}</span><span class="short">${short}</span>`;
  };
  const row = (side: 'home' | 'away', t: TeamSummary) =>
    html`<tr><th scope="row" class="team-cell ${side}"><span class="dot" aria-hidden="true"></span>${teamCell(side, t)}</th>${lines.map(
      (l) => html`<td class="num${won(l, side) ? ' won' : ''}${l.label === s.current ? ' current' : ''}">${scoreText(l[side])}</td>`,
    )}<td class="num total">${isSets ? scoreText(t.score) : (t.score ?? total(side))}</td></tr>`;
  const phase = isSets ? 'set' : sportOf(s.sport) === 'football' ? 'half' : 'period';
  return html`<section aria-labelledby="by-phase"><h2 id="by-phase">Score by ${phase}</h2>
<div class="scroll fit"><table class="line-score">
<thead><tr><th scope="col"><span class="visually-hidden">Team</span></th>${lines.map(head)}\
<th class="num" scope="col"><abbr title="${isSets ? 'Sets won' : 'Total'}">${isSets ? 'Sets' : 'T'}</abbr></th></tr></thead>
<tbody>
${row('home', s.home)}
${row('away', s.away)}
</tbody></table></div>${lines.length < s.lines.length ? morePhases(s.lines.length - lines.length, s.scoreUnit) : ''}</section>`;
}

/** A line score's column head: "S3" for "Set 3"; football's "1st", "2nd", "ET1", "Pens", the whole label on hover and to screen readers. */
function phaseHead(label: string): SafeHtml | string {
  if (label.startsWith('Set ')) return label.replace(/^Set /, 'S');
  const short = label
    .replace(/^(\d)(st|nd) half$/, '$1$2')
    .replace(/^Extra time (\d)$/, 'ET$1')
    .replace(/^Penalties$/, 'Pens');
  return short === label ? label : html`<abbr title="${label}">${short}</abbr>`;
}

function morePhases(count: number, unit: MatchSummary['scoreUnit']): SafeHtml {
  return html`<p class="more-note muted">${more(count, unit === 'sets' ? 'set' : 'period', unit === 'sets' ? 'sets' : 'periods')} \
in the JSON (the total counts them all).</p>`;
}
