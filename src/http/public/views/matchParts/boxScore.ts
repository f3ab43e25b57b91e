import { clip } from '../../../../domain/clippedText.js';
import type { PlayerLine } from '../../../../domain/matchPayload.js';
import { shortNames } from '../../../../domain/shortNames.js';
import { boxScore, type BoxCell, sportOf, type StatKeyOrder, statKeyOrder } from '../../../../domain/statVocabulary.js';
import { html, type SafeHtml } from '../../../views/html.js';
import { more, NAME_SHOWN, PLAYERS_PER_SIDE, SHORT_SHOWN } from '../../../views/renderCaps.js';
import { jsonUrl, type MatchPageView, playerName, teamName } from './matchPageView.js';

function cell(c: BoxCell): SafeHtml {
  return html`<td class="num"${c.sort === null ? '' : html` data-sort="${c.sort}"`}>${c.text}</td>`;
}

const KEEPER = /^(gk|goalkeeper|goalie|keeper|tw|torwart|portero|gardien)$/i;
/** String.prototype.localeCompare's order, without its per-call set-up. */
const byName = new Intl.Collator().compare;

/**
 * A side's players in box-score order: starters, then the bench, when the payload says who
 * started; in the feed's own `order` when it gives one (NBA: starters by position); in football
 * the goalkeeper first in each; else by shirt number, then name. Each
 * player's sort key is made once (a side of thousands sorts without a pattern per comparison).
 */
function lineUp(sport: string | null, players: PlayerLine[]): { starters: PlayerLine[]; bench: PlayerLine[] } {
  const football = sportOf(sport) === 'football';
  const sorted = (group: PlayerLine[]) =>
    group
      .map((p) => ({
        p,
        keeper: football && p.position !== null && KEEPER.test(p.position.trim()) ? 0 : 1,
        order: p.order ?? Number.POSITIVE_INFINITY,
        shirt: p.number !== null && /^\d+$/.test(p.number) ? Number(p.number) : Number.POSITIVE_INFINITY,
        name: p.name ?? '',
      }))
      .sort((a, b) => a.keeper - b.keeper || a.order - b.order || a.shirt - b.shirt || byName(a.name, b.name))
      .map(({ p }) => p);
  if (!players.some((p) => p.starter === true)) return { starters: sorted(players), bench: [] };
  return { starters: sorted(players.filter((p) => p.starter === true)), bench: sorted(players.filter((p) => p.starter !== true)) };
}

/** The name cell's text: the whole name, and on narrow screens its initialled form ("A.-K. Papadopoulou-Schmidt") when that differs. */
function nameCell(full: string, short: string | null): SafeHtml {
  // Initials never split at their hyphen ("A.-K."): a non-breaking hyphen (U+2011) joins them.
  return short === null || short === full
    ? html`<span class="name">${full}</span>`
    : html`<span class="name full">${full}</span><span class="name short">${short.replace(/(?<=^|[\s-])(\p{L}\.)-(?=\p{L}\.)/gu, '$1\u2011')}</span>`;
}

/** A player listed but not played, as box scores show one: "DNP — coach's decision" across the stat columns, not a row of zeros or blanks. */
function notPlayed(p: PlayerLine, cells: readonly BoxCell[], columns: number): SafeHtml | null {
  if (p.notPlaying == null || cells.some((c) => c.sort !== null && c.sort !== 0)) return null;
  return html`<td class="dnp muted" colspan="${columns}">${p.notPlaying}</td>`;
}

function playerTable(view: MatchPageView, title: string, side: string, players: PlayerLine[], order: StatKeyOrder): SafeHtml {
  const { starters, bench } = lineUp(view.summary.sport, players);
  const ordered = bench.length === 0 ? starters : [...starters, ...bench];
  // Totals count every player; rows and columns are capped (PLAYERS_PER_SIDE, UNKNOWN_STAT_COLUMNS).
  const box = boxScore(
    view.summary.sport,
    ordered.map((p) => p.stats),
    { rows: PLAYERS_PER_SIDE, order },
  );
  const shown = ordered.length > PLAYERS_PER_SIDE ? ordered.slice(0, PLAYERS_PER_SIDE) : ordered;
  const shorts = shortNames(
    shown.map((p) => (p.name === null ? null : clip(p.name, NAME_SHOWN))),
    shown.map((p) => (p.shortName === null ? null : clip(p.shortName, NAME_SHOWN))),
  );
  const playerRow = (p: PlayerLine, i: number) =>
    html`<tr><th scope="row" class="player" data-sort="${i}"><span class="no">${p.number === null ? '' : clip(p.number, SHORT_SHOWN)}</span> \
${nameCell(playerName(p), shorts[i] ?? null)}${p.position ? html` <span class="pos muted">${clip(p.position, SHORT_SHOWN)}</span>` : ''}</th>\
${notPlayed(p, box.rows[i] ?? [], box.columns.length) ?? (box.rows[i] ?? []).map(cell)}</tr>`;
  const rows = shown.map(playerRow);
  const startersShown = Math.min(starters.length, shown.length);
  const notes = [
    shown.length < ordered.length ? more(ordered.length - shown.length, 'player', 'players') : '',
    box.moreStats > 0 ? more(box.moreStats, 'stat', 'stats') : '',
  ].filter(Boolean);
  const caption = `${title}: player stats`;
  return html`<div class="box"><h3 class="${side}">${title}</h3>
<div class="scroll" tabindex="0" role="region" aria-label="${caption}, scrolls sideways"><table class="player-stats" data-sortable>
<thead><tr><th scope="col" class="player" data-sort-type="number"><button type="button" class="sort">Player</button></th>${box.columns.map(
    (c) => html`<th scope="col" class="num"><button type="button" class="sort"><abbr title="${c.title}">${c.abbr}</abbr></button></th>`,
  )}</tr></thead>
<tbody>${bench.length === 0 ? rows : rows.slice(0, startersShown)}</tbody>${
    bench.length > 0 && shown.length > startersShown
      ? html`<tbody class="bench"><tr class="group"><th scope="colgroup" colspan="${box.columns.length + 1}">Substitutes</th></tr>\
${rows.slice(startersShown)}</tbody>`
      : ''
  }
<tfoot><tr><th scope="row" class="player">Totals</th>${box.totals.map((c) => html`<td class="num">${c.text}</td>`)}</tr></tfoot>
</table></div>${
    notes.length > 0
      ? html`<p class="more-note muted">${notes.join(' and ')} of ${title} in \
<a href="${jsonUrl(view)}">the match’s JSON</a>; the totals count them all.</p>`
      : ''
  }</div>`;
}

export function playerStats(view: MatchPageView): SafeHtml | string {
  const s = view.summary;
  if (s.players.length === 0) return '';
  const sides = [
    { key: 'home', title: teamName(s.home.name, 'Home') },
    { key: 'away', title: teamName(s.away.name, 'Away') },
  ];
  const known = new Set(sides.map((side) => side.key));
  const groups = sides
    .map((side) => ({ key: side.key, title: side.title, players: s.players.filter((p) => p.team === side.key) }))
    .concat([{ key: 'other', title: 'Players', players: s.players.filter((p) => p.team === null || !known.has(p.team)) }])
    .filter((g) => g.players.length > 0);
  // One order of unknown stat columns for both teams: first seen across the whole match.
  const order = statKeyOrder(s.players.map((p) => p.stats));
  return html`<section aria-labelledby="box"><h2 id="box">Box score</h2>
<p class="hint muted">Tap a column to sort. Abbreviations explain themselves on hover and to screen readers.</p>
${groups.map((g) => playerTable(view, g.title, g.key, g.players, order))}</section>`;
}
