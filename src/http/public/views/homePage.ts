import { html } from '../../views/html.js';
import { layout } from '../../views/layout.js';

/** What a visitor typed that the home page could not use, and which form it came from. */
export interface HomeProblem {
  field: 'match' | 'club';
  value: string;
  message: string;
}

/**
 * The site's front door (`GET /`), for people who type the bare address: find a match by its
 * id or link, a club by its address or name in the link, and where the dashboard and the
 * developer docs are. `/docs` stays the API console.
 */
export function renderHomePage(problem: HomeProblem | null = null): string {
  const field = (name: 'match' | 'club', label: string, hint: string, placeholder: string) => {
    const wrong = problem?.field === name ? problem : null;
    return html`<form class="find" method="get" action="/find" role="search" aria-labelledby="find-${name}">
<label id="${name}-label" for="${name}">${label}</label>
<p class="muted small" id="${name}-hint">${hint}</p>
<div class="find-row"><input id="${name}" name="${name}" type="text" inputmode="url" autocomplete="off" autocapitalize="none" spellcheck="false" \
placeholder="${placeholder}" value="${wrong?.value ?? ''}" maxlength="300" required \
aria-describedby="${name}-hint${wrong ? html` ${name}-error` : ''}"${wrong ? html` aria-invalid="true"` : ''}>\
<button type="submit">Open</button></div>
${wrong ? html`<p class="error" id="${name}-error" role="alert">${wrong.message}</p>` : ''}</form>`;
  };
  return layout(
    problem ? 'Not found' : 'Live scores of club matches',
    html`<h1>Live scores, box scores and play-by-play of club matches</h1>
<p class="lead">matchlog shows matches as the scorers’ apps upload them, live on any phone. Open a match someone shared, or a club’s page.</p>
<div class="home-grid">
<section aria-labelledby="find-match"><h2 id="find-match">Find a match</h2>
${field('match', 'Match id or link', 'As on the QR code or the link you were sent, for example cup-final-2026.', 'cup-final-2026')}</section>
<section aria-labelledby="find-club"><h2 id="find-club">Find a club</h2>
${field('club', 'Club address or link', 'The part after /c/ in the club’s link, for example hillcrest-vc.', 'hillcrest-vc')}</section>
</div>
<section aria-labelledby="more"><h2 id="more">Also here</h2>
<ul class="links">
<li><a href="/dashboard">Club dashboard</a>: for club admins, to sync and export their teams’ matches.</li>
<li><a href="/docs">API and upload format</a>: for app developers (the interactive API console).</li>
</ul></section>`,
    'site',
  );
}
