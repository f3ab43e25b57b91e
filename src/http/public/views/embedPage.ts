import { html, SafeHtml } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import { fits, PAGE_BYTES } from '../../views/renderCaps.js';
import { tooLargePage } from './matchPage.js';
import { lineScore } from './matchParts/lineScore.js';
import { liveBar } from './matchParts/liveBar.js';
import { headline, type MatchPageView, statusOf } from './matchParts/matchPageView.js';
import { scoreboard } from './matchParts/scoreboard.js';

/** The swappable part of the widget: scoreboard and score by set or period. */
export function renderEmbedMain(view: MatchPageView): string {
  return html`<div id="match-main" data-revision="${view.revision}" data-status="${statusOf(view) ?? ''}">
<h1 class="visually-hidden">${headline(view.id, view.summary)}</h1>
${scoreboard(view)}
${lineScore(view.summary)}
</div>`.value;
}

/** The compact live widget other sites frame: links open the full page in a new tab. Bounded as the match page is. */
export function renderEmbedPage(view: MatchPageView): string {
  const page = layout(
    headline(view.id, view.summary),
    html`${liveBar(view, `/match/${view.id}/embed?part=main`)}
${new SafeHtml(renderEmbedMain(view))}
<p class="more"><a href="${view.publicUrl}" target="_blank" rel="noopener">Full match: stats and play-by-play</a></p>`,
    'embed',
    { scripts: ['/assets/live.js'], bare: true },
  );
  return fits(page, PAGE_BYTES) ? page : tooLargePage(view);
}
