import { html, SafeHtml } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import { fits, PAGE_BYTES } from '../../views/renderCaps.js';
import { headline, lineScore, liveBar, MATCH_STYLE, type MatchPageView, scoreboard, statusOf, tooLargePage } from './matchPage.js';

const EMBED_STYLE = new SafeHtml(`
main.bare { padding: .5rem; max-width: none; }
.bare .scoreboard { margin: 0 0 .4rem; padding: .5rem .6rem; }
.bare .board .score { font-size: 2rem; }
.bare h2 { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.bare .livebar { font-size: .75rem; }
.bare .more { font-size: .8rem; margin: .3rem 0 0; }
`);

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
    new SafeHtml(`${MATCH_STYLE.value}${EMBED_STYLE.value}`),
    { scripts: ['/assets/live.js'], bare: true },
  );
  return fits(page, PAGE_BYTES) ? page : tooLargePage(view);
}
