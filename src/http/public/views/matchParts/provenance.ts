import { html, type SafeHtml } from '../../../views/html.js';
import { timeTag } from '../timeText.js';
import { historyUrl, type MatchPageView } from './matchPageView.js';

/** Where the version shown comes from: its id, when it was created and changed, its history (or, for an old one, the way back). */
export function provenance(view: MatchPageView): SafeHtml {
  const created = html`created ${timeTag(view.createdAt)}`;
  const protection = view.protected ? ' · write-protected' : '';
  if (view.asOf) {
    return html`<p class="notice" role="note">This is the match as it was at revision ${view.asOf.revision}, stored ${timeTag(view.updatedAt)}.
<a href="/match/${view.id}">See the current version</a> or <a href="${historyUrl(view.id)}">its whole history</a>.</p>`;
  }
  const updates = (view.versions ?? 1) - 1;
  const updated =
    updates > 0
      ? html` · <a href="${historyUrl(view.id)}">updated ${updates} ${updates === 1 ? 'time' : 'times'}</a>, last ${timeTag(view.updatedAt)}`
      : html` · <a href="${historyUrl(view.id)}">history</a>`;
  return html`<p class="muted small">Match <code>${view.id}</code> · ${created}${updated}${protection}</p>`;
}
