import { html, type SafeHtml } from '../../../views/html.js';
import type { MatchPageView } from './matchPageView.js';

/** What a page says in place of a scoreboard when matchlog reads nothing (or only a sport or status) of an upload. */
export function unrecognised(view: MatchPageView): SafeHtml {
  const s = view.summary;
  // A status (or sport) alone is read, and shown in the badge: the notice says what is missing, not that nothing was known.
  const known = [s.sport === null ? null : html`its sport (${s.sport})`, s.status == null ? null : html`its status`].filter((x) => x !== null);
  if (known.length > 0)
    return html`<section class="notice" role="note"><h2>Only ${known.length === 2 ? html`${known[0]} and ${known[1]}` : known[0]} so far</h2>
<p>The upload has no teams, score, sets or periods, players or actions yet, so there is no scoreboard to show.
<a href="/api/matches/${view.id}">See the match as JSON</a>, or read <a href="/docs">the upload format</a>.</p></section>`;
  return html`<section class="notice" role="note"><h2>matchlog cannot read this match</h2>
<p>The upload is stored, but none of its fields are ones matchlog knows (teams, score, sets or periods, players, actions), so there is nothing to show here.
<a href="/api/matches/${view.id}">See the match as JSON</a>, or read <a href="/docs">the upload format</a>.</p></section>`;
}
