import { clip } from '../../../domain/clippedText.js';
import { describeDiff } from '../../../domain/matchDiff.js';
import type { HistoryPage } from '../../../history/historyQueries.js';
import { html } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import { CHANGE_SHOWN, fits, PAGE_BYTES } from '../../views/renderCaps.js';
import { matchTitle, type TeamNames } from './matchParts/matchPageView.js';
import { timeTag } from './timeText.js';

export interface HistoryPageView {
  id: string;
  /** The newest version's team names, for the title (never the payload: the page stays cheap whatever its size). */
  teams: TeamNames;
  page: HistoryPage;
  order: 'oldest' | 'newest';
  /** Each event's leaf in the transparency log, by revision (absent while the log has not taken it in). */
  logIndexes?: Map<number, number>;
}

const WRITE_LABEL: Record<string, string> = { MatchCreated: 'created', MatchReplaced: 'replaced' };

/**
 * The readable timeline of a match: who changed what, when, and what it said before. Each
 * change is cut to CHANGE_SHOWN characters; a page that would still exceed PAGE_BYTES links the
 * history's JSON instead.
 */
export function renderHistoryPage(view: HistoryPageView): string {
  const page = fullHistoryPage(view);
  if (fits(page, PAGE_BYTES)) return page;
  return layout(
    `History of match ${view.id}`,
    html`<h1>History of match <code>${view.id}</code></h1>
<section class="notice" role="note"><h2>This history is too large to show here</h2>
<p>This page of it would be larger than ${PAGE_BYTES / 1024} KiB. \
<a href="/api/matches/${view.id}/history?order=${view.order}">See the history as JSON</a>.</p></section>`,
  );
}

function fullHistoryPage({ id, teams, page, order, logIndexes = new Map() }: HistoryPageView): string {
  const title = matchTitle(id, teams);
  const other = order === 'newest' ? 'oldest' : 'newest';
  const cards = page.entries.map((e) => {
    const what = e.content
      ? html`<strong>${WRITE_LABEL[e.type] ?? e.type}</strong> by ${e.content.via}${e.content.protection ? html` (${e.content.protection})` : ''}`
      : html`<strong>${e.type}</strong>${
          e.details
            ? html` <code>${Object.entries(e.details)
                .map(([k, v]) => `${k}=${String(v)}`)
                .join(' ')}</code>`
            : ''
        }`;
    const changes = e.content ? (e.diff ? clip(describeDiff(e.diff), CHANGE_SHOWN).split('; ') : ['first version']) : [];
    const from = [e.clientAddressClass ? `${e.clientAddressClass} address` : '', e.requestId ? html`request <code>${e.requestId}</code>` : ''].filter(
      (part) => part !== '',
    );
    return html`<li>
<div class="when"><span class="rev">Revision ${e.revision}</span>${timeTag(e.recordedAt)}</div>
<p class="what">${what}${e.content ? html` · <a href="/match/${id}?revision=${e.revision}">view revision ${e.revision}</a>` : ''}\
${logIndexes.has(e.revision) ? html` · log entry <a href="/api/log/entries/${logIndexes.get(e.revision)}">${logIndexes.get(e.revision)}</a>` : ''}</p>
${changes.length > 0 ? html`<ul class="changes" aria-label="What changed">${changes.map((c) => html`<li>${c}</li>`)}</ul>` : ''}
${from.length > 0 ? html`<p class="from muted">${from.map((part, i) => (i === 0 ? part : html` · ${part}`))}</p>` : ''}
</li>`;
  });
  const next =
    page.next === null
      ? ''
      : html`<a href="/match/${id}/history?order=${order}&amp;from=${page.next}">${order === 'newest' ? 'Older events →' : 'Newer events →'}</a>`;
  return layout(
    `History of ${title}`,
    html`<h1>History of ${title}</h1>
<p class="muted">Match <code>${id}</code> · ${page.head + 1} events in the log · ${
      page.protected
        ? 'write-protected: every change after creation was made with the match’s write token'
        : 'not write-protected: anyone with the id could change it'
    }</p>
<nav class="pages"><a href="/match/${id}">Current version</a>\
<a href="/match/${id}/history?order=${other}">${other} first</a><a href="/api/matches/${id}/history?order=${order}">as JSON</a></nav>
<p class="muted small">Times are shown in your time zone when the page’s script runs, in UTC otherwise.</p>
<ol class="timeline">${cards}</ol>
<p class="muted small">Log entry: each event's entry in this service's transparency log. \
Anyone can check that it is in the signed log, and that a version's bytes are the ones logged, without trusting this server: \
<code>matchlog audit</code> or any RFC 6962 verifier, \
with <a href="/api/log/checkpoint">the signed checkpoint</a> and <a href="/api/log/key">the log's key</a> (docs/auditing.md).</p>
<nav class="pages">${next}</nav>`,
    'history',
    { scripts: ['/assets/live.js'] },
  );
}
