import type { SideDetails } from '../../../../domain/liveDetails.js';
import { html, type SafeHtml } from '../../../views/html.js';
import { type MatchPageView, scoreText, statusOf, teamName } from './matchPageView.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One side's live facts: basketball's fouls, bonus and timeouts left; volleyball's serve, timeouts and substitutions this set. */
function sideFacts(d: SideDetails, serving: boolean): string[] {
  return [
    serving ? 'Serving' : '',
    d.fouls === null ? '' : `Fouls ${d.fouls}`,
    d.bonus === true ? 'Bonus' : '',
    d.timeoutsLeft === null ? '' : `${plural(d.timeoutsLeft, 'timeout', 'timeouts')} left`,
    d.timeouts === null || d.timeouts === 0 ? '' : plural(d.timeouts, 'timeout', 'timeouts'),
    d.substitutions === null || d.substitutions === 0 ? '' : plural(d.substitutions, 'sub', 'subs'),
  ].filter(Boolean);
}

/**
 * What a parent looks at while the match is live, under the score: the current set's points in
 * large type (volleyball), and each side's serve, fouls, bonus, timeouts and substitutions.
 */
export function liveFacts(view: MatchPageView): SafeHtml | string {
  const s = view.summary;
  const d = s.live;
  if (d == null || statusOf(view) !== 'live') return '';
  const set = s.scoreUnit === 'sets' && s.current ? s.lines.find((l) => l.label === s.current) : undefined;
  const setScore =
    set === undefined
      ? ''
      : html`<p class="current-set"><span class="label">${set.label}</span> \
<span class="points" data-testid="set-points">${scoreText(set.home)}<span class="colon"> : </span>${scoreText(set.away)}</span></p>`;
  const facts = (side: 'home' | 'away') => sideFacts(d[side], d.serving === side);
  const home = facts('home');
  const away = facts('away');
  const list = (side: 'home' | 'away', items: string[]) =>
    html`<ul class="facts ${side}" aria-label="${side === 'home' ? teamName(s.home.name, 'Home') : teamName(s.away.name, 'Away')}">\
${items.map((f) => html`<li${f === 'Serving' ? html` class="serving"` : ''}>${f}</li>`)}</ul>`;
  const sides = home.length + away.length > 0 ? html`<div class="live-facts">${list('home', home)}${list('away', away)}</div>` : '';
  return html`${setScore}${sides}`;
}
