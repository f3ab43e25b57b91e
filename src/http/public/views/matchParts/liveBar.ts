import { html, type SafeHtml } from '../../../views/html.js';
import { type MatchPageView, statusOf } from './matchPageView.js';

/** The bar the page's script keeps live (`/match/:id/live`): which revision is shown, and a reload link without script. */
export function liveBar(view: MatchPageView, partUrl = `/match/${view.id}?part=main`): SafeHtml | string {
  if (view.asOf) return '';
  return html`<div class="livebar" role="status" data-live="/match/${view.id}/live" data-part="${partUrl}" \
data-revision="${view.revision}" data-status="${statusOf(view) ?? ''}">
<span class="live-state">Showing revision ${view.revision}.</span> <a class="reload" href="/match/${view.id}">Reload for the latest</a></div>`;
}
