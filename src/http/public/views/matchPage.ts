import { html, SafeHtml } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import { fits, PAGE_BYTES } from '../../views/renderCaps.js';
import { playerStats } from './matchParts/boxScore.js';
import { liveBar } from './matchParts/liveBar.js';
import { lineScore } from './matchParts/lineScore.js';
import { sharingCard } from './matchParts/linkPreview.js';
import { headline, historyUrl, jsonUrl, type MatchPageView, matchTitle, playsUrl, statusOf } from './matchParts/matchPageView.js';
import { playByPlay } from './matchParts/playByPlay.js';
import { provenance } from './matchParts/provenance.js';
import { charts } from './matchParts/scoreFlowCharts.js';
import { scoreboard } from './matchParts/scoreboard.js';
import { share } from './matchParts/shareSection.js';
import { unrecognised } from './matchParts/unrecognisedNotice.js';

/**
 * The match page, assembled from its parts (matchParts/): the scoreboard, the score by set or
 * period, the charts, the box score, the play-by-play, where it comes from, and sharing; and a
 * page of plays on its own. Each is bounded by renderCaps.ts, the whole by PAGE_BYTES.
 */

/** Bytes left for the main part of a page within PAGE_BYTES: the frame, sharing card and links take the rest. */
const MAIN_BYTES = PAGE_BYTES - 48 * 1024;

/**
 * The part of the page that a live update replaces: everything that depends on the match.
 * Bounded by the caps of renderCaps.ts; if it would still take more than MAIN_BYTES, the score
 * and a note linking the JSON instead.
 */
export function renderMatchMain(view: MatchPageView): string {
  const main = fullMatchMain(view);
  return fits(main, MAIN_BYTES) ? main : tooLargeMain(view);
}

function tooLargeMain(view: MatchPageView): string {
  const plays =
    view.asOf === undefined && view.summary.actionCount > 0 ? html`, or read <a href="${playsUrl(view.id, 1)}">its play-by-play page by page</a>` : '';
  return html`<div id="match-main" data-revision="${view.revision}" data-status="${statusOf(view) ?? ''}">
<h1 class="visually-hidden">${matchTitle(view.id, view.summary)}</h1>
${view.asOf ? provenance(view) : ''}
${scoreboard(view)}
<section class="notice" role="note"><h2>This match is too large to show in full</h2>
<p>Its page would be larger than ${PAGE_BYTES / 1024} KiB, so only the score is shown here. \
<a href="${jsonUrl(view)}">See the whole match as JSON</a>${plays}.</p></section>
${view.asOf ? '' : provenance(view)}
</div>`.value;
}

function fullMatchMain(view: MatchPageView): string {
  const s = view.summary;
  const title = matchTitle(view.id, s);
  const isOld = view.asOf !== undefined;
  return html`<div id="match-main" data-revision="${view.revision}" data-status="${statusOf(view) ?? ''}">
<h1 class="visually-hidden">${title}</h1>
${isOld ? provenance(view) : ''}
${scoreboard(view)}
${s.recognised === false ? unrecognised(view) : ''}
${lineScore(s)}
${charts(s)}
${playerStats(view)}
${playByPlay(view) ?? ''}
${isOld ? '' : provenance(view)}
</div>`.value;
}

export function renderMatchPage(view: MatchPageView): string {
  const s = view.summary;
  const title = headline(view.id, s);
  const page = layout(
    view.asOf ? `${title} (revision ${view.asOf.revision})` : title,
    html`${liveBar(view)}
${new SafeHtml(renderMatchMain(view))}
${view.asOf ? '' : share(view)}
<p class="muted small"><a href="${jsonUrl(view)}">This match as JSON</a> · <a href="${historyUrl(view.id)}">History</a></p>`,
    'match',
    { head: sharingCard(view), scripts: ['/assets/live.js'] },
  );
  return fits(page, PAGE_BYTES) ? page : tooLargePage(view);
}

/**
 * A page of plays on its own (`/match/:id?part=plays&page=N`): page 1 has the newest plays, as
 * the match page does; each is as bounded as the match page's. Null when there is no page N.
 */
export function renderPlaysPage(view: MatchPageView, number: number): string | null {
  const plays = Number.isSafeInteger(number) && number >= 1 ? playByPlay(view, number) : null;
  if (plays === null) return null;
  const title = matchTitle(view.id, view.summary);
  const page = layout(
    `Play-by-play of ${title}`,
    html`<h1>Play-by-play of ${title}</h1>
<nav class="pages"><a href="/match/${view.id}">The match</a><a href="${jsonUrl(view)}">as JSON</a></nav>
${plays}`,
    'match',
  );
  return fits(page, PAGE_BYTES) ? page : tooLargePage(view, 'Its plays are too large to show here');
}

/** The last bound of any public page: a short page linking the JSON when the page would exceed PAGE_BYTES. */
export function tooLargePage(view: Pick<MatchPageView, 'id' | 'asOf'>, what = 'This match is too large to show in full'): string {
  return layout(
    `Match ${view.id}`,
    html`<h1>Match <code>${view.id}</code></h1>
<section class="notice" role="note"><h2>${what}</h2>
<p>Its page would be larger than ${PAGE_BYTES / 1024} KiB. <a href="${jsonUrl(view)}">See the whole match as JSON</a>.</p></section>`,
    'match',
  );
}
