import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../domain/webhookEvents.js';
import type { Delivery, WebhookEndpoint } from '../../../webhooks/webhookStore.js';
import { html, SafeHtml } from '../../views/html.js';
import { connectNav } from './connectPages.js';
import { csrfField, dashboardPage, type Frame, notice, scrollRegion, when } from './frame.js';

const base = '/dashboard/connect/webhooks';

function eventChoices(chosen: readonly WebhookEventType[]): SafeHtml {
  return html`<fieldset class="choices"><legend>Events to send</legend>
${WEBHOOK_EVENT_TYPES.map(
  (type) => html`<label><input type="checkbox" name="events" value="${type}"${chosen.includes(type) ? new SafeHtml(' checked') : ''}> \
<span><code>${type}</code> <small>${WEBHOOK_EVENT_LABELS[type].replace(/^[^:]*: /, '')}</small></span></label>`,
)}
</fieldset>`;
}

const status = (endpoint: WebhookEndpoint) =>
  endpoint.disabledAt === null
    ? html`<span class="outcome-synced">active</span>`
    : html`<span class="outcome-skipped">disabled</span> ${when(endpoint.disabledAt)}<br><small class="muted">${endpoint.disabledReason ?? ''}</small>`;

export interface WebhooksPage {
  endpoints: WebhookEndpoint[];
  maxEndpoints: number;
  /** What the add form showed, when it is shown again with an error. */
  form: { url: string; events: WebhookEventType[] };
  info: string | null;
  error: string | null;
}

export function renderWebhooksPage(frame: Frame, page: WebhooksPage): string {
  // A list, not a table: a URL wraps on a phone instead of running over the next column.
  const items = page.endpoints.map(
    (endpoint) => html`<li data-endpoint-id="${endpoint.endpointId}">
<a href="${base}/${endpoint.endpointId}">${endpoint.url}</a><br>
${status(endpoint)} <small class="muted">· added ${when(endpoint.createdAt)}</small><br>
<small>${endpoint.eventTypes.map((type) => html`<code>${type}</code> `)}</small>
</li>`,
  );
  const full = page.endpoints.length >= page.maxEndpoints;
  return dashboardPage(
    frame,
    'Webhooks',
    html`<h1>Connect</h1>
${connectNav('webhooks')}
<h2>Webhooks</h2>
${notice(page.info)}
${notice(page.error, 'error')}
<p>matchlog tells your club's systems (website, federation export, chat bot) about each match as it syncs: a signed POST \
(<a href="https://www.standardwebhooks.com/">Standard Webhooks</a>) to an endpoint of yours, retried for about a day when it fails.</p>
${page.endpoints.length === 0 ? html`<p class="muted">No endpoint yet.</p>` : html`<ul class="endpoints" aria-label="endpoints">${items}</ul>`}
<h2>Add an endpoint</h2>
${
  full
    ? html`<p class="notice">Your club has ${page.maxEndpoints} endpoints, the most a club may have: remove one to add another.</p>`
    : html`<form method="post" action="${base}" class="stack">
${csrfField(frame.csrfToken)}
<label>Endpoint URL <input type="text" name="url" inputmode="url" required maxlength="2000" value="${page.form.url}" \
placeholder="https://example.org/matchlog-webhook" autocomplete="off" spellcheck="false"></label>
${eventChoices(page.form.events)}
<button type="submit">Add endpoint</button>
</form>`
}`,
  );
}

function secretShown(secret: string, what: string): SafeHtml {
  return html`<p class="notice"><strong>Copy the signing secret now.</strong> ${what} matchlog never shows it again.</p>
<label>Signing secret <input class="secret" type="text" readonly value="${secret}" data-testid="webhook-secret" \
aria-label="signing secret" autocomplete="off" spellcheck="false"></label>`;
}

function deliveryRow(endpointId: string, delivery: Delivery, csrfToken: string): SafeHtml {
  const outcome =
    delivery.state === 'delivered'
      ? html`<span class="outcome-synced">delivered</span>`
      : delivery.state === 'failed'
        ? html`<span class="outcome-skipped">failed</span>`
        : html`<span class="outcome-unauthenticated">pending</span>${
            delivery.attempts > 0 ? html`<br><small class="muted">next try ${when(new Date(delivery.nextAttemptAt).toISOString())}</small>` : ''
          }`;
  const last =
    delivery.lastAttemptAt === null
      ? html`<span class="muted">not tried yet</span>`
      : html`${delivery.lastStatus === null ? '' : html`<code>${String(delivery.lastStatus)}</code> `}${when(delivery.lastAttemptAt)}\
${delivery.lastError === null ? '' : html`<br><small class="muted">${delivery.lastError}</small>`}`;
  return html`<tr data-webhook-id="${delivery.eventId}" data-state="${delivery.state}">
<th scope="row"><code>${delivery.type}</code><br><small class="muted">${delivery.matchId}</small></th>
<td>${outcome}<br><form method="post" action="${base}/${endpointId}/deliveries/${delivery.eventId}/redeliver" class="inline redeliver">\
${csrfField(csrfToken)}<button type="submit" class="quiet">Redeliver</button></form></td>
<td class="num">${delivery.attempts}</td>
<td>${last}</td>
<td><code class="id">${delivery.eventId}</code></td>
</tr>`;
}

export interface EndpointPage {
  endpoint: WebhookEndpoint;
  deliveries: Delivery[];
  /** A secret just made (the endpoint added, or its secret rotated): shown on this answer only. */
  newSecret: { secret: string; rotated: boolean } | null;
  info: string | null;
}

export function renderEndpointPage(frame: Frame, page: EndpointPage): string {
  const { endpoint } = page;
  const action = (path: string, label: string, kind = '') =>
    html`<form method="post" action="${base}/${endpoint.endpointId}/${path}" class="inline">${csrfField(frame.csrfToken)}\
<button type="submit"${kind === '' ? '' : new SafeHtml(` class="${kind}"`)}>${label}</button></form>`;
  const secretNote =
    page.newSecret === null
      ? ''
      : secretShown(
          page.newSecret.secret,
          page.newSecret.rotated
            ? 'Until the previous secret expires, every webhook carries a signature by each, so your endpoint can switch at its own pace.'
            : 'Your endpoint verifies each webhook with it.',
        );
  return dashboardPage(
    frame,
    'Webhook endpoint',
    html`<h1>Connect</h1>
${connectNav('webhooks')}
<h2>Endpoint</h2>
${notice(page.info)}
${secretNote}
<dl class="details">
<dt>URL</dt><dd><code class="url">${endpoint.url}</code></dd>
<dt>Events</dt><dd>${endpoint.eventTypes.map((type) => html`<code>${type}</code> `)}</dd>
<dt>Status</dt><dd>${status(endpoint)}</dd>
<dt>Signing secret</dt><dd>${
      endpoint.previousSecretUntil === null
        ? 'one secret'
        : html`a new one, and the previous one until ${when(endpoint.previousSecretUntil)} (both sign each webhook)`
    }</dd>
</dl>
<p class="actions">${action('rotate', 'Rotate the signing secret', 'quiet')} \
${endpoint.disabledAt === null ? action('disable', 'Pause deliveries', 'quiet') : action('enable', 'Enable again')} \
${action('delete', 'Remove this endpoint', 'danger')}</p>
<h2>Deliveries</h2>
<p class="muted">The newest 50. <strong>Redeliver</strong> sends a webhook again with the same <code>webhook-id</code>.</p>
${
  page.deliveries.length === 0
    ? html`<p class="muted">Nothing sent yet: the next match synced into your club is.</p>`
    : scrollRegion(
        'deliveries',
        html`<table class="deliveries"><thead><tr><th scope="col">Event</th><th scope="col">Outcome</th><th scope="col" class="num">Tries</th>\
<th scope="col">Last answer</th><th scope="col">webhook-id</th></tr></thead>
<tbody>${page.deliveries.map((delivery) => deliveryRow(endpoint.endpointId, delivery, frame.csrfToken))}</tbody></table>`,
      )
}
<p><a href="${base}">All endpoints</a></p>`,
  );
}
