import { html, type SafeHtml } from '../../../views/html.js';
import { headline, type MatchPageView } from './matchPageView.js';

/** PUBLIC_BASE_URL, from a match's public address (`BASE/match/id`). */
const baseOf = (publicUrl: string) => publicUrl.slice(0, publicUrl.lastIndexOf('/match/'));

/**
 * Height of the embed snippet's frame: at 360 px wide every part of the widget has a bounded
 * height (embed.css: names on two lines, scorers and cards on three a side, venue on one), so
 * the widget fits with five sets or extra time, long names and 40 goals and cards
 * (test/e2e/parentViews.browser.test.ts, viewerPages.browser.test.ts); the snippet's script
 * then sizes the frame to the widget exactly.
 */
export const EMBED_HEIGHT = 400;

/** The snippet a club pastes: the frame, and a script that makes it as tall as the widget (postMessage). */
function embedSnippet(view: Pick<MatchPageView, 'publicUrl' | 'summary' | 'id'>): string {
  return `<iframe src="${view.publicUrl}/embed" title="Live score: ${headline(view.id, view.summary).replace(/[<>&"]/g, '')}" \
width="360" height="${EMBED_HEIGHT}" style="border:0;max-width:100%" data-matchlog-embed></iframe>
<script src="${baseOf(view.publicUrl)}/assets/embed.js" async></script>`;
}

export function share(view: MatchPageView): SafeHtml {
  const embed = embedSnippet(view);
  return html`<section class="share" aria-labelledby="share"><h2 id="share">Share</h2>
<div class="share-grid"><img src="/match/${view.id}/qr.svg" alt="QR code for ${view.publicUrl}" width="132" height="132">
<div><p>Scan or send the link: <a href="${view.publicUrl}">${view.publicUrl}</a></p>
<details><summary>Embed the live score on your club’s site</summary>\
<p class="muted">Paste this where the score should show; it updates itself, \
and the script keeps the frame as tall as the score (without it the frame is ${EMBED_HEIGHT} px tall).</p>\
<pre><code>${embed}</code></pre></details></div></div></section>`;
}
