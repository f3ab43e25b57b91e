import { html } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import { type ErrorAnswer, NO_SUCH_PAGE } from '../../errorHandling.js';

/** A public page's error: the status and message of the app's one error mapping. */
export function renderMatchErrorPage({ statusCode, title, message, headers }: Pick<ErrorAnswer, 'statusCode' | 'title' | 'message' | 'headers'>): string {
  // A 404 of the match pages is a missing match, unless no route has the address at all.
  const heading = statusCode === 404 && title !== NO_SUCH_PAGE ? 'Match not found' : title;
  // A refusal that passes (busy, too many at once) says when to come back, with a link that reloads the same address.
  const reload = headers['retry-after'] === undefined ? '' : html`<p><a class="reload" href="">Reload the page</a></p>`;
  return layout(heading, html`<h1>${heading}</h1><p>${message}</p>${reload}<p class="muted">HTTP ${statusCode}</p>`);
}
