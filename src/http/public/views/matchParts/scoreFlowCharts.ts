import type { MatchSummary } from '../../../../domain/matchPayload.js';
import { sportOf } from '../../../../domain/statVocabulary.js';
import { html, type SafeHtml } from '../../../views/html.js';
import { CHART_POINTS, PHASES_SHOWN } from '../../../views/renderCaps.js';
import { goalChart, leadTracker } from '../matchFlow.js';
import { phaseScores, scoreChart } from '../scoreChart.js';
import { awayShort, homeShort, teamName } from './matchPageView.js';

/** How the score went: football's goals by minute and basketball's lead over the whole game as one chart each, else one small chart per set or period. */
export function charts(s: MatchSummary): SafeHtml | string {
  if (s.actionCount === 0) return '';
  const home = teamName(s.home.name, 'Home');
  const away = teamName(s.away.name, 'Away');
  const sport = sportOf(s.sport);
  const whole =
    sport === 'football'
      ? goalChart(s.actions(), home, away, { home: s.home.score, away: s.away.score })
      : sport === 'basketball'
        ? leadTracker(s.actionMarks(), homeShort(s), awayShort(s), CHART_POINTS, PHASES_SHOWN)
        : null;
  const legend = html`<p class="legend"><span class="key home"></span>${home} <span class="key away"></span>${away}</p>`;
  if (whole !== null) return html`<section aria-labelledby="flow"><h2 id="flow">How the score went</h2>${sport === 'football' ? legend : ''}${whole}</section>`;
  const phases = phaseScores(s.actionMarks(), PHASES_SHOWN, CHART_POINTS);
  if (phases.length === 0) return '';
  return html`<section aria-labelledby="flow"><h2 id="flow">How the score went</h2>
${legend}
<div class="charts">${phases.map((p) => scoreChart(p, home, away))}</div></section>`;
}
