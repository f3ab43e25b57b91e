import type { SeasonRecord } from '../../../domain/seasonRecord.js';
import { html, SafeHtml } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import type { ListedMatch } from '../publicClubs.js';
import { fixtureList } from './fixtureList.js';

export interface TeamPageView {
  clubName: string;
  clubPath: string;
  teamName: string;
  path: string;
  seasons: string[];
  season: string | null;
  upcoming: ListedMatch[];
  played: ListedMatch[];
  record: SeasonRecord;
  leaders: { abbr: string; title: string; leaders: { name: string; value: string }[] }[];
  /** Null when the club hides the roster. */
  roster: { name: string; number: string | null; position: string | null }[] | null;
  noindex: boolean;
  /** The team's calendar and Atom feed, when it has them. */
  feeds: { calendar: string; atom: string } | null;
}

const UNIT_WORDS = { sets: 'Sets', points: 'Points', goals: 'Goals' } as const;

function record(view: TeamPageView): SafeHtml {
  const r = view.record;
  if (r.played === 0) return html`<p class="muted">No final result yet this season.</p>`;
  const unit = r.unit === null ? null : UNIT_WORDS[r.unit];
  return html`<dl class="record">
<div><dt>Played</dt><dd>${r.played}</dd></div>
<div><dt>Won</dt><dd>${r.won}</dd></div>
${r.drawn > 0 ? html`<div><dt>Drawn</dt><dd>${r.drawn}</dd></div>` : ''}
<div><dt>Lost</dt><dd>${r.lost}</dd></div>
${unit === null ? '' : html`<div><dt>${unit} for–against</dt><dd>${r.for}–${r.against}</dd></div>`}
</dl>`;
}

function leaders(view: TeamPageView): SafeHtml {
  if (view.leaders.length === 0) return html`<p class="muted">No player stats yet this season.</p>`;
  return html`<div class="leaders">${view.leaders.map(
    (stat) => html`<section class="leader"><h3><abbr title="${stat.title}">${stat.abbr}</abbr> <span class="muted">${stat.title}</span></h3>
<ol>${stat.leaders.map((l) => html`<li><span class="name">${l.name}</span> <span class="value">${l.value}</span></li>`)}</ol></section>`,
  )}</div>`;
}

function roster(view: TeamPageView): SafeHtml | string {
  if (view.roster === null) return '';
  return html`<h2>Roster</h2>${
    view.roster.length === 0
      ? html`<p class="muted">No players yet this season.</p>`
      : html`<ul class="roster">${view.roster.map(
          (p) => html`<li>${p.number === null ? '' : html`<span class="number">#${p.number}</span> `}\
${p.name === `#${p.number}` ? '' : html`<span class="name">${p.name}</span>`}\
${p.position === null ? '' : html` <span class="muted">${p.position}</span>`}</li>`,
        )}</ul>`
  }`;
}

function seasons(view: TeamPageView): SafeHtml | string {
  if (view.seasons.length < 2) return view.season === null ? '' : html`<p class="muted">Season ${view.season}</p>`;
  return html`<nav class="seasons" aria-label="seasons">${view.seasons.map((season) =>
    season === view.season
      ? html`<a href="${view.path}?season=${encodeURIComponent(season)}" aria-current="page">${season}</a>`
      : html`<a href="${view.path}?season=${encodeURIComponent(season)}">${season}</a>`,
  )}</nav>`;
}

/** The head's robots rule: noindex unless the club allows indexing. */
export const robotsTag = (noindex: boolean) => (noindex ? html`<meta name="robots" content="noindex">` : new SafeHtml(''));

/** A team's public page: schedule, results, season record, leaders and roster, made from what the club syncs. */
export function renderTeamPage(view: TeamPageView): string {
  const feedLinks =
    view.feeds === null
      ? ''
      : html`<p class="follow"><a href="${view.feeds.calendar}">Add to your calendar (iCalendar)</a> · \
<a href="${view.feeds.atom}">Follow results (Atom feed)</a></p>`;
  const head = html`${robotsTag(view.noindex)}${
    view.feeds === null ? '' : html`<link rel="alternate" type="application/atom+xml" title="${view.teamName}: results and schedule" href="${view.feeds.atom}">`
  }`;
  return layout(
    `${view.teamName} · ${view.clubName}`,
    html`<p class="crumbs"><a href="${view.clubPath}">${view.clubName}</a></p>
<h1>${view.teamName}</h1>
${seasons(view)}
${feedLinks}
<h2>Next matches</h2>
${fixtureList('next matches', view.upcoming, 'No match announced.')}
<h2>Results</h2>
${fixtureList('results', view.played, 'No match played yet this season.')}
<h2>Season record</h2>
${record(view)}
<h2>Leaders</h2>
${leaders(view)}
${roster(view)}`,
    'club',
    { head },
  );
}
