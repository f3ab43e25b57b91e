import { html, type SafeHtml } from '../../views/html.js';

const WITH_ZONE = /(Z|[+-]\d\d:?\d\d)$/i;
const utc = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * A `<time>` whose text reads well without JavaScript ("Sun, 1 Mar 2026, 18:00 UTC"); the
 * page script rewrites it in the viewer's locale and time zone when the value has a zone
 * (`data-local`). A time without a zone is local to the venue and is shown as it is.
 */
export function timeTag(value: string): SafeHtml {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return html`<span>${value.slice(0, 40)}</span>`;
  const iso = new Date(ms).toISOString();
  if (WITH_ZONE.test(value.trim())) return html`<time datetime="${iso}" data-local="datetime">${utc.format(ms)} UTC</time>`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value.trim()))
    return html`<time datetime="${value.trim()}">${dateOnly.format(Date.parse(`${value.trim()}T00:00:00Z`))}</time>`;
  // Zone-less: read the wall-clock fields as written.
  const wall = Date.parse(`${value.trim().slice(0, 19)}Z`);
  return Number.isNaN(wall) ? html`<span>${value.slice(0, 40)}</span>` : html`<time datetime="${value.trim().slice(0, 19)}">${utc.format(wall)}</time>`;
}
