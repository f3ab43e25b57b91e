import type { SideDetails } from '../../../domain/liveDetails.js';
import type { ActionLine, MatchSummary, PlayerLine, ScoreLine, TeamSummary } from '../../../domain/matchPayload.js';
import { clip } from '../../../domain/clippedText.js';
import { familyName, shortNames, teamShortNames } from '../../../domain/shortNames.js';
import { boxScore, type BoxCell, sportOf, type StatKeyOrder, statKeyOrder } from '../../../domain/statVocabulary.js';
import { html, SafeHtml } from '../../views/html.js';
import { layout } from '../../views/layout.js';
import { type ErrorAnswer, NO_SUCH_PAGE } from '../../errorHandling.js';
import { CHART_POINTS, EVENTS_SHOWN, fits, more, NAME_SHOWN, PAGE_BYTES, PHASES_SHOWN, PLAYERS_PER_SIDE, SHORT_SHOWN } from '../../views/renderCaps.js';
import { goalChart, goalsAndCards, type GoalLine, leadTracker } from './matchFlow.js';
import { SHOWN_STATUS_WORDS, shownStatus, type ShownStatus } from './matchStatus.js';
import { escapedLength, type PlayByPlay, type PlaysPage, playsPage } from './playsPages.js';
import { phaseScores, scoreChart } from './scoreChart.js';
import { timeTag } from './timeText.js';
import { CARD_HEIGHT, CARD_WIDTH } from './shareCard.js';

export interface MatchPageView {
  id: string;
  createdAt: string;
  updatedAt: string;
  protected: boolean;
  summary: MatchSummary;
  revision: number;
  /** Public address of the page (from PUBLIC_BASE_URL), for sharing cards and the QR code. */
  publicUrl: string;
  /** The current version: how many versions there have been. */
  versions?: number;
  /** An old version, from the log: which revision, and the newest one. */
  asOf?: { revision: number; latestRevision: number };
  /** Whether the match had no upload for LIVE_WINDOW_MS when the page was rendered (the page cache keys on it). */
  quiet?: boolean;
}

/** The state the page shows (matchStatus.ts): live only while the payload says so and uploads keep coming. */
export const statusOf = (view: MatchPageView): ShownStatus | null =>
  shownStatus(view.summary.status, { quiet: view.quiet === true, old: view.asOf !== undefined });

/** A team's name as pages show it: cut to NAME_SHOWN characters (the JSON has it whole). */
const teamName = (name: string | null, fallback: string) => clip(name ?? fallback, NAME_SHOWN);

/** The team names a title needs: a summary's, or the ones the public view keeps (history page). */
export type TeamNames = { home: Pick<TeamSummary, 'name'>; away: Pick<TeamSummary, 'name'> };

export function matchTitle(id: string, s: TeamNames): string {
  return s.home.name || s.away.name ? `${teamName(s.home.name, 'Home')} vs ${teamName(s.away.name, 'Away')}` : `Match ${id}`;
}

const historyUrl = (id: string) => `/match/${id}/history`;
const jsonUrl = (view: Pick<MatchPageView, 'id' | 'asOf'>) => `/api/matches/${view.id}${view.asOf ? `?revision=${view.asOf.revision}` : ''}`;
/** Sets or periods a page renders (PHASES_SHOWN); the rest are counted in a note. */
const shownLines = (s: MatchSummary) => (s.lines.length > PHASES_SHOWN ? s.lines.slice(0, PHASES_SHOWN) : s.lines);
const scoreText = (n: number | null) => (n === null ? '–' : String(n));

/** "Hillcrest Owls 2–3 Stonebridge Lynx", for titles and sharing cards. */
export function headline(id: string, s: MatchSummary): string {
  if (!s.home.name && !s.away.name) return `Match ${id}`;
  const score = s.home.score === null && s.away.score === null ? ' vs ' : ` ${scoreText(s.home.score)}–${scoreText(s.away.score)} `;
  return `${teamName(s.home.name, 'Home')}${score}${teamName(s.away.name, 'Away')}`;
}

/**
 * Names short enough for a narrow column, never the same for both sides: the payload's own short
 * names (tricodes) unless both give the same one, else each name's first distinctive word or
 * the word that tells the two apart (shortNames.ts).
 */
const shortPair = (s: MatchSummary) => {
  const pair = teamShortNames(s.home, s.away);
  return { home: clip(pair.home, SHORT_SHOWN), away: clip(pair.away, SHORT_SHOWN) };
};
const homeShort = (s: MatchSummary) => shortPair(s).home;
const awayShort = (s: MatchSummary) => shortPair(s).away;

/** The state as a badge; none for a status matchlog does not know ("available"). */
function statusBadge(view: MatchPageView): SafeHtml | string {
  const shown = statusOf(view);
  if (shown === null) return '';
  const s = view.summary;
  const current = (shown === 'live' || shown === 'then') && s.current ? html` · ${s.current}` : '';
  // The game clock (basketball) or minute (football) while live, as broadcasters show it beside the period.
  const clock = shown === 'live' && s.live?.clock ? html` · <span class="clock">${s.live.clock}</span>` : '';
  return html`<span class="badge ${shown}">${SHOWN_STATUS_WORDS[shown]}${current}${clock}</span>`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One side's live facts: basketball's fouls, bonus and timeouts left; volleyball's serve, timeouts and substitutions this set. */
function sideFacts(d: SideDetails, serving: boolean): string[] {
  return [
    serving ? 'Serving' : '',
    d.fouls === null ? '' : `Fouls ${d.fouls}`,
    d.bonus === true ? 'Bonus' : '',
    d.timeoutsLeft === null ? '' : `${plural(d.timeoutsLeft, 'timeout', 'timeouts')} left`,
    d.timeouts === null || d.timeouts === 0 ? '' : plural(d.timeouts, 'timeout', 'timeouts'),
    d.substitutions === null || d.substitutions === 0 ? '' : plural(d.substitutions, 'sub', 'subs'),
  ].filter(Boolean);
}

/**
 * What a parent looks at while the match is live, under the score: the current set's points in
 * large type (volleyball), and each side's serve, fouls, bonus, timeouts and substitutions.
 */
function liveFacts(view: MatchPageView): SafeHtml | string {
  const s = view.summary;
  const d = s.live;
  if (d == null || statusOf(view) !== 'live') return '';
  const set = s.scoreUnit === 'sets' && s.current ? s.lines.find((l) => l.label === s.current) : undefined;
  const setScore =
    set === undefined
      ? ''
      : html`<p class="current-set"><span class="label">${set.label}</span> \
<span class="points" data-testid="set-points">${scoreText(set.home)}<span class="colon"> : </span>${scoreText(set.away)}</span></p>`;
  const facts = (side: 'home' | 'away') => sideFacts(d[side], d.serving === side);
  const home = facts('home');
  const away = facts('away');
  const list = (side: 'home' | 'away', items: string[]) =>
    html`<ul class="facts ${side}" aria-label="${side === 'home' ? teamName(s.home.name, 'Home') : teamName(s.away.name, 'Away')}">\
${items.map((f) => html`<li${f === 'Serving' ? html` class="serving"` : ''}>${f}</li>`)}</ul>`;
  const sides = home.length + away.length > 0 ? html`<div class="live-facts">${list('home', home)}${list('away', away)}</div>` : '';
  return html`${setScore}${sides}`;
}

/** Football: how many players each side had sent off (a red card, or a second yellow), so a reader sees 11 v 10. */
function sendingsOff(s: MatchSummary): { home: number; away: number } {
  const off = { home: 0, away: 0 };
  if (sportOf(s.sport) !== 'football' || s.actionCount === 0) return off;
  for (const e of goalsAndCards(s.actions())) if (e.kind === 'redCard' || e.kind === 'secondYellow') off[e.side] += 1;
  return off;
}

/** Red cards beside a team's name, as broadcasters show a side down to ten. */
function sentOffMark(count: number): SafeHtml | string {
  if (count === 0) return '';
  const cards = Array.from({ length: Math.min(count, 5) }, () => html`<span class="card redCard"></span>`);
  return html`<span class="sent-off" role="img" aria-label="${count} ${count === 1 ? 'player' : 'players'} sent off">${cards}</span>`;
}

export function scoreboard(view: MatchPageView): SafeHtml {
  const s = view.summary;
  const off = sendingsOff(s);
  const team = (t: TeamSummary, side: 'home' | 'away', fallback: string) => {
    const name = teamName(t.name, fallback);
    const short = side === 'home' ? homeShort(s) : awayShort(s);
    const shown = clip(short, SHORT_SHOWN);
    // Its length (a class chars-4 to chars-16) lets the short name shrink to fit its column on a phone, never overflowing it.
    return html`<div class="team ${side}"><span class="name">${name}</span>\
${short !== name ? html`<span class="short chars-${Math.max([...shown].length, 4)}" aria-hidden="true">${shown}</span>` : ''}${sentOffMark(off[side])}</div>`;
  };
  const unit = s.scoreUnit === 'sets' ? 'sets' : s.scoreUnit === 'goals' ? 'goals' : s.scoreUnit === 'points' ? 'points' : '';
  // A match announced ahead says when it starts (issue 61: schedules).
  const when = s.startedAt ? (s.status === 'scheduled' ? html`Starts ${timeTag(s.startedAt)}` : timeTag(s.startedAt)) : '';
  const meta = [s.competition, s.category].filter((x): x is string => x !== null);
  return html`<section class="scoreboard" aria-label="Score">
<div class="meta">${statusBadge(view)}${meta.length > 0 ? html`<span>${meta.join(' · ')}</span>` : ''}</div>
<div class="board">
${team(s.home, 'home', 'Home')}
<div class="score" data-testid="score" aria-label="${unit ? `score in ${unit}` : 'score'}">\
<span>${scoreText(s.home.score)}</span><span class="colon"> : </span><span>${scoreText(s.away.score)}</span></div>
${team(s.away, 'away', 'Away')}
</div>
${liveFacts(view)}
${sportOf(s.sport) === 'football' ? goalsUnderScore(view) : ''}
${
  unit === 'sets' && s.lines.length > 0
    ? html`<p class="sets-inline">\
${shownLines(s).map((l) => html`<span class="${l.label === s.current ? 'current' : ''}">${scoreText(l.home)}–${scoreText(l.away)}</span>`)}</p>`
    : ''
}
<p class="where muted">${[s.venue ? html`<span>${clip(s.venue, NAME_SHOWN)}</span>` : '', when ? html`<span>${when}</span>` : '']
    .filter(Boolean)
    .map((part, i) => (i === 0 ? part : html` · ${part}`))}</p>
</section>`;
}

/**
 * Football's scorers and cards under the score, each side under its team, as broadcasters show
 * them ("Köhler 23', 67'"; "Demiral (og) 53'"), at most EVENTS_SHOWN lines a side.
 */
function goalsUnderScore(view: MatchPageView): SafeHtml | string {
  const s = view.summary;
  if (s.actionCount === 0) return '';
  const events = goalsAndCards(s.actions());
  if (events.length === 0) return '';
  const names = new Map(s.players.filter((p) => p.playerId !== null).map((p) => [p.playerId, p.name]));
  const who = (e: GoalLine) => {
    const full = (e.playerId === null ? null : names.get(e.playerId)) ?? e.playerName;
    return full === null ? null : clip(familyName(full), NAME_SHOWN);
  };
  const side = (key: 'home' | 'away') => {
    // Goals by the same player share a line, as "Köhler 23', 67'".
    const lines = new Map<string, { kind: GoalLine['kind']; name: string | null; marks: string[] }>();
    for (const e of events) {
      if (e.side !== key) continue;
      const name = who(e);
      const group = e.kind === 'goal' && name !== null ? `goal\0${name}` : `${lines.size}`;
      const line = lines.get(group);
      const mark = e.penalty ? `${e.mark ?? ''} (pen)`.trim() : (e.mark ?? '');
      if (line !== undefined) line.marks.push(mark);
      else if (lines.size < EVENTS_SHOWN) lines.set(group, { kind: e.kind, name, marks: [mark] });
    }
    const items = [...lines.values()].map((l) => {
      const marks = l.marks.filter(Boolean).join(', ');
      const label = l.kind === 'ownGoal' ? `${l.name ?? 'Own goal'}${l.name === null ? '' : ' (og)'}` : (l.name ?? (l.kind === 'goal' ? 'Goal' : ''));
      const card =
        l.kind === 'goal' || l.kind === 'ownGoal'
          ? ''
          : html`<span class="card ${l.kind}" aria-hidden="true"></span>\
<span class="visually-hidden">${l.kind === 'redCard' ? 'Red card' : l.kind === 'secondYellow' ? 'Second yellow card' : 'Yellow card'}: </span>`;
      return html`<li class="${l.kind === 'goal' || l.kind === 'ownGoal' ? 'goal' : 'booking'}">\
${card}${label}${marks ? html` <span class="mark">${marks}</span>` : ''}</li>`;
    });
    return html`<ul class="events ${key}" aria-label="${key === 'home' ? teamName(s.home.name, 'Home') : teamName(s.away.name, 'Away')}: goals and cards">\
${items}</ul>`;
  };
  return html`<div class="goals">${side('home')}${side('away')}</div>`;
}

export function lineScore(s: MatchSummary): SafeHtml | string {
  if (s.lines.length === 0) return '';
  const total = (side: 'home' | 'away') => s.lines.reduce((sum, l) => sum + (l[side] ?? 0), 0);
  const isSets = s.scoreUnit === 'sets';
  const head = (l: ScoreLine) =>
    html`<th class="num${l.label === s.current ? ' current' : ''}" scope="col"\
${l.label === s.current ? html` aria-current="true"` : ''}>${phaseHead(l.label)}</th>`;
  const won = (l: ScoreLine, side: 'home' | 'away') => l.home !== null && l.away !== null && (side === 'home' ? l.home > l.away : l.away > l.home);
  const lines = shownLines(s);
  // Whole names from 640 px, the short ones on phones.
  const teamCell = (side: 'home' | 'away', t: TeamSummary) => {
    const full = teamName(t.name, side === 'home' ? 'Home' : 'Away');
    const short = side === 'home' ? homeShort(s) : awayShort(s);
    return short === full ? full : html`<span class="full">${full}</span><span class="short">${short}</span>`;
  };
  const row = (side: 'home' | 'away', t: TeamSummary) =>
    html`<tr><th scope="row" class="team-cell ${side}"><span class="dot" aria-hidden="true"></span>${teamCell(side, t)}</th>${lines.map(
      (l) => html`<td class="num${won(l, side) ? ' won' : ''}${l.label === s.current ? ' current' : ''}">${scoreText(l[side])}</td>`,
    )}<td class="num total">${isSets ? scoreText(t.score) : (t.score ?? total(side))}</td></tr>`;
  const phase = isSets ? 'set' : sportOf(s.sport) === 'football' ? 'half' : 'period';
  return html`<section aria-labelledby="by-phase"><h2 id="by-phase">Score by ${phase}</h2>
<div class="scroll fit"><table class="line-score">
<thead><tr><th scope="col"><span class="visually-hidden">Team</span></th>${lines.map(head)}\
<th class="num" scope="col"><abbr title="${isSets ? 'Sets won' : 'Total'}">${isSets ? 'Sets' : 'T'}</abbr></th></tr></thead>
<tbody>
${row('home', s.home)}
${row('away', s.away)}
</tbody></table></div>${lines.length < s.lines.length ? morePhases(s.lines.length - lines.length, s.scoreUnit) : ''}</section>`;
}

/** A line score's column head: "S3" for "Set 3"; football's "1st", "2nd", "ET1", "Pens", the whole label on hover and to screen readers. */
function phaseHead(label: string): SafeHtml | string {
  if (label.startsWith('Set ')) return label.replace(/^Set /, 'S');
  const short = label
    .replace(/^(\d)(st|nd) half$/, '$1$2')
    .replace(/^Extra time (\d)$/, 'ET$1')
    .replace(/^Penalties$/, 'Pens');
  return short === label ? label : html`<abbr title="${label}">${short}</abbr>`;
}

function morePhases(count: number, unit: MatchSummary['scoreUnit']): SafeHtml {
  return html`<p class="more-note muted">${more(count, unit === 'sets' ? 'set' : 'period', unit === 'sets' ? 'sets' : 'periods')} \
in the JSON (the total counts them all).</p>`;
}

/** How the score went: football's goals by minute and basketball's lead over the whole game as one chart each, else one small chart per set or period. */
function charts(s: MatchSummary): SafeHtml | string {
  if (s.actionCount === 0) return '';
  const home = teamName(s.home.name, 'Home');
  const away = teamName(s.away.name, 'Away');
  const sport = sportOf(s.sport);
  const whole =
    sport === 'football'
      ? goalChart(s.actions(), home, away, { home: s.home.score, away: s.away.score })
      : sport === 'basketball'
        ? leadTracker(s.actionMarks(), homeShort(s), awayShort(s), CHART_POINTS, PHASES_SHOWN)
        : null;
  const legend = html`<p class="legend"><span class="key home"></span>${home} <span class="key away"></span>${away}</p>`;
  if (whole !== null) return html`<section aria-labelledby="flow"><h2 id="flow">How the score went</h2>${sport === 'football' ? legend : ''}${whole}</section>`;
  const phases = phaseScores(s.actionMarks(), PHASES_SHOWN, CHART_POINTS);
  if (phases.length === 0) return '';
  return html`<section aria-labelledby="flow"><h2 id="flow">How the score went</h2>
${legend}
<div class="charts">${phases.map((p) => scoreChart(p, home, away))}</div></section>`;
}

function cell(c: BoxCell): SafeHtml {
  return html`<td class="num"${c.sort === null ? '' : html` data-sort="${c.sort}"`}>${c.text}</td>`;
}

/** A player's name or id as a page shows it. */
const playerName = (p: PlayerLine) => clip(p.name ?? p.playerId ?? '', NAME_SHOWN);

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

function playerStats(view: MatchPageView): SafeHtml | string {
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

const LONG_WORD = /(\S{25,})/;

/**
 * Text whose words over 24 characters (no real word of a play-by-play is that long) get a break
 * opportunity every 12: the column keeps real words whole ("Rebound", never "Reboun|d") and a
 * pasted run of characters still wraps instead of widening the table.
 */
function breakable(text: string): SafeHtml | string {
  if (!LONG_WORD.test(text)) return text;
  return new SafeHtml(
    text
      .split(LONG_WORD)
      .map((part, i) => {
        if (i % 2 === 0) return html`${part}`.value;
        const chars = Array.from(part);
        const pieces: string[] = [];
        for (let at = 0; at < chars.length; at += 12) pieces.push(html`${chars.slice(at, at + 12).join('')}`.value);
        return pieces.join('<wbr>');
      })
      .join(''),
  );
}

/** How many of a phase's actions show before "show all". */
const RECENT_ACTIONS = 15;

/** Where a page of plays is, on its own: page 1 has the newest. */
const playsUrl = (id: string, page: number) => `/match/${id}?part=plays&page=${page}`;

/**
 * One page of the play-by-play (playsPage: at most PLAYS_PER_PAGE rows, PLAYS_PAGE_BYTES,
 * PHASES_SHOWN sets or periods), newest first, grouped by set or period; older plays are
 * linked as further pages (only for the current version: an old one links its JSON).
 */
function playByPlay(view: MatchPageView, number = 1): SafeHtml | null {
  const s = view.summary;
  const actions: PlayByPlay = { count: s.actionCount, at: s.actionAt, marks: s.actionMarks };
  if (actions.count === 0) return null;
  const names = new Map(s.players.filter((p) => p.playerId !== null).map((p) => [p.playerId, p]));
  const who = (a: ActionLine) => {
    const p = a.playerId === null ? undefined : names.get(a.playerId);
    if (p !== undefined) return `${p.number !== null ? `#${clip(p.number, SHORT_SHOWN)} ` : ''}${playerName(p)}`;
    // Play-by-play feeds name the player in the action itself (NBA playerNameI, StatsBomb player.name).
    return a.playerName !== null ? clip(a.playerName, NAME_SHOWN) : a.playerId === null ? '' : clip(a.playerId, NAME_SHOWN);
  };
  const home = homeShort(s);
  const away = awayShort(s);
  const homeFull = teamName(s.home.name, 'Home');
  const awayFull = teamName(s.away.name, 'Away');
  const side = (team: string | null) => (team === 'home' ? home : team === 'away' ? away : clip(team ?? '', NAME_SHOWN));
  // Whole names where they fit (from 640 px), the short ones on phones, as the line score does.
  const sideCell = (team: string | null): SafeHtml | string => {
    const full = team === 'home' ? homeFull : team === 'away' ? awayFull : null;
    const short = side(team);
    return full === null || full === short ? short : html`<span class="full">${full}</span><span class="short">${short}</span>`;
  };
  // A row's markup is ~200 bytes besides its texts. Pages are found from the newest, so page N is the same for every request.
  const whoBytes = new Map<string | null, number>();
  const sideBytes = new Map<string | null, number>();
  const rowBytes = (a: ActionLine) => {
    const w = whoBytes.get(a.playerId) ?? escapedLength(who(a));
    whoBytes.set(a.playerId, w);
    // The whole name beside the short one (sideCell): its bytes and two spans' (46).
    const full = a.team === 'home' ? homeFull : a.team === 'away' ? awayFull : null;
    const t = sideBytes.get(a.team) ?? escapedLength(side(a.team)) + (full === null || full === side(a.team) ? 0 : escapedLength(full) + 46);
    sideBytes.set(a.team, t);
    return 200 + escapedLength(a.description) + w + t;
  };
  let page = playsPage(actions, 0, rowBytes);
  for (let n = 1; n < number; n += 1) {
    if (page.next === null) return null;
    page = playsPage(actions, page.next, rowBytes);
  }
  const groups = new Map<string, ActionLine[]>();
  for (let i = page.start; i < page.end; i += 1) {
    const a = actions.at(i);
    const key = a.phase ?? 'Match';
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [a]);
    else group.push(a);
  }
  const phases = [...groups.entries()];
  // On a page of part of the plays, a set cut by the page says how many of its actions are here.
  // Read once here: with every line worded, marks are made from the lines on each ask.
  const marks = actions.marks();
  const perPhase = new Map<string, number>();
  if (page.start > 0 || page.from > 0) for (const a of marks) perPhase.set(a.phase ?? 'Match', (perPhase.get(a.phase ?? 'Match') ?? 0) + 1);
  const counted = (phase: string, n: number) => {
    const all = perPhase.get(phase) ?? n;
    return all > n ? `${n} of ${all} actions here` : `${n} ${n === 1 ? 'action' : 'actions'}`;
  };
  const hasClock = marks.some((a) => a.clocked);
  const latest = phases.length - 1;
  const row = (a: ActionLine, previous: ActionLine | undefined) => {
    const scored = a.score !== null && previous?.score !== a.score && previous !== undefined;
    const teamClass = a.team === 'home' || a.team === 'away' ? a.team : '';
    return html`<tr class="${scored ? 'scored' : ''}">${hasClock ? html`<td class="clock num">${a.clock ?? ''}</td>` : ''}\
<td class="team-cell ${teamClass}"><span class="dot" aria-hidden="true"></span>${sideCell(a.team)}</td>\
<td class="what">${breakable(a.description)}${who(a) ? html`<span class="who">${breakable(who(a))}</span>` : ''}</td>\
<td class="num run">${a.score ?? ''}</td></tr>`;
  };
  // The action before a page's oldest, when it is of the same set, says whether that one scored.
  const before = page.start > 0 ? actions.at(page.start - 1) : undefined;
  const previousOf = (group: ActionLine[], i: number) => group[i - 1] ?? (before !== undefined && before.phase === group[0]?.phase ? before : undefined);
  return html`<section aria-labelledby="pbp"><h2 id="pbp">Play-by-play</h2>
<p class="hint muted">Newest first. ${phases.length > 1 ? `Earlier ${phaseWords(s.sport)} are folded: open them to read.` : ''}</p>
${[...phases].reverse().map(([phase, actions], reversedIndex) => {
  const index = latest - reversedIndex;
  const last = actions.at(-1);
  const rows = actions.map((a, i) => row(a, previousOf(actions, i))).reverse();
  const head = html`<thead><tr>${hasClock ? html`<th class="num" scope="col">Clock</th>` : ''}\
<th scope="col">Team</th><th scope="col">Action</th><th class="num" scope="col">Score</th></tr></thead>`;
  // Long phases show their newest actions; the rest fold under "show all" (no script needed).
  const shown = rows.slice(0, RECENT_ACTIONS);
  const folded = rows.slice(RECENT_ACTIONS);
  return html`<details class="play-by-play"${index === latest ? html` open` : ''}>\
<summary>${phase}${last?.score ? html` · ${last.score}` : ''} <span class="muted">(${counted(phase, actions.length)})</span></summary>
<div class="scroll"><table class="pbp">${head}<tbody>${shown}</tbody></table></div>
${
  folded.length > 0
    ? html`<details class="more"><summary>Show all ${actions.length} actions of ${phase}</summary>\
<div class="scroll"><table class="pbp">${head}<tbody>${folded}</tbody></table></div></details>`
    : ''
}</details>`;
})}${playsPager(view, page, number, actions.count)}</section>`;
}

/** What a sport's play-by-play is folded by: sets, halves (and extra time), quarters. */
function phaseWords(sport: string | null): string {
  const kind = sportOf(sport);
  if (kind === 'volleyball') return 'sets';
  if (kind === 'football') return 'halves';
  if (kind === 'basketball') return 'quarters';
  return 'sets and periods';
}

/** Links to the newer and older pages of plays, when the play-by-play does not fit one page. */
function playsPager(view: MatchPageView, page: PlaysPage, number: number, total: number): SafeHtml | string {
  if (page.from === 0 && page.next === null) return '';
  const range = html`<span class="muted">Plays ${total - page.end + 1}–${total - page.start} of ${total}, newest first.</span>`;
  if (view.asOf) return html`<nav class="pages">${range} <a href="${jsonUrl(view)}">Older plays of this revision in its JSON</a></nav>`;
  return html`<nav class="pages" aria-label="pages of plays">${range}${number > 2 ? html`<a href="${playsUrl(view.id, 1)}">Newest plays</a>` : ''}${
    number > 1 ? html`<a href="${playsUrl(view.id, number - 1)}" rel="prev">← Newer plays</a>` : ''
  }${page.next === null ? '' : html`<a href="${playsUrl(view.id, number + 1)}" rel="next">Older plays →</a>`}</nav>`;
}

function provenance(view: MatchPageView): SafeHtml {
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

function unrecognised(view: MatchPageView): SafeHtml {
  const s = view.summary;
  // A status (or sport) alone is read, and shown in the badge: the notice says what is missing, not that nothing was known.
  const known = [s.sport === null ? null : html`its sport (${s.sport})`, s.status == null ? null : html`its status`].filter((x) => x !== null);
  if (known.length > 0)
    return html`<section class="notice" role="note"><h2>Only ${known.length === 2 ? html`${known[0]} and ${known[1]}` : known[0]} so far</h2>
<p>The upload has no teams, score, sets or periods, players or actions yet, so there is no scoreboard to show.
<a href="/api/matches/${view.id}">See the match as JSON</a>, or read <a href="/docs">the upload format</a>.</p></section>`;
  return html`<section class="notice" role="note"><h2>matchlog cannot read this match</h2>
<p>The upload is stored, but none of its fields are ones matchlog knows (teams, score, sets or periods, players, actions), so there is nothing to show here.
<a href="/api/matches/${view.id}">See the match as JSON</a>, or read <a href="/docs">the upload format</a>.</p></section>`;
}

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

function share(view: MatchPageView): SafeHtml {
  const embed = embedSnippet(view);
  return html`<section class="share" aria-labelledby="share"><h2 id="share">Share</h2>
<div class="share-grid"><img src="/match/${view.id}/qr.svg" alt="QR code for ${view.publicUrl}" width="132" height="132">
<div><p>Scan or send the link: <a href="${view.publicUrl}">${view.publicUrl}</a></p>
<details><summary>Embed the live score on your club’s site</summary>\
<p class="muted">Paste this where the score should show; it updates itself, \
and the script keeps the frame as tall as the score (without it the frame is ${EMBED_HEIGHT} px tall).</p>\
<pre><code>${embed}</code></pre></details></div></div></section>`;
}

/** Bytes left for the main part of a page within PAGE_BYTES: the frame, sharing card and links take the rest. */
const MAIN_BYTES = PAGE_BYTES - 48 * 1024;

/**
 * The part of the page that a live update replaces: everything that depends on the match.
 * Bounded by the caps of renderCaps.ts; if it would still take more than MAIN_BYTES, the score
 * and a note linking the JSON instead.
 */
export function renderMatchMain(view: MatchPageView): string {
  const main = fullMatchMain(view);
  return fits(main, MAIN_BYTES) ? main : tooLargeMain(view);
}

function tooLargeMain(view: MatchPageView): string {
  const plays =
    view.asOf === undefined && view.summary.actionCount > 0 ? html`, or read <a href="${playsUrl(view.id, 1)}">its play-by-play page by page</a>` : '';
  return html`<div id="match-main" data-revision="${view.revision}" data-status="${statusOf(view) ?? ''}">
<h1 class="visually-hidden">${matchTitle(view.id, view.summary)}</h1>
${view.asOf ? provenance(view) : ''}
${scoreboard(view)}
<section class="notice" role="note"><h2>This match is too large to show in full</h2>
<p>Its page would be larger than ${PAGE_BYTES / 1024} KiB, so only the score is shown here. \
<a href="${jsonUrl(view)}">See the whole match as JSON</a>${plays}.</p></section>
${view.asOf ? '' : provenance(view)}
</div>`.value;
}

function fullMatchMain(view: MatchPageView): string {
  const s = view.summary;
  const title = matchTitle(view.id, s);
  const isOld = view.asOf !== undefined;
  return html`<div id="match-main" data-revision="${view.revision}" data-status="${statusOf(view) ?? ''}">
<h1 class="visually-hidden">${title}</h1>
${isOld ? provenance(view) : ''}
${scoreboard(view)}
${s.recognised === false ? unrecognised(view) : ''}
${lineScore(s)}
${charts(s)}
${playerStats(view)}
${playByPlay(view) ?? ''}
${isOld ? '' : provenance(view)}
</div>`.value;
}

export function liveBar(view: MatchPageView, partUrl = `/match/${view.id}?part=main`): SafeHtml | string {
  if (view.asOf) return '';
  return html`<div class="livebar" role="status" data-live="/match/${view.id}/live" data-part="${partUrl}" \
data-revision="${view.revision}" data-status="${statusOf(view) ?? ''}">
<span class="live-state">Showing revision ${view.revision}.</span> <a class="reload" href="/match/${view.id}">Reload for the latest</a></div>`;
}

function sharingCard(view: MatchPageView): SafeHtml {
  const s = view.summary;
  const title = headline(view.id, s);
  const shown = statusOf(view);
  const status = shown === 'live' ? `Live${s.current ? `, ${s.current}` : ''}` : shown === 'final' ? 'Final' : null;
  const description = [
    status,
    s.lines.length > 0
      ? shownLines(s)
          .map((l) => `${scoreText(l.home)}–${scoreText(l.away)}`)
          .join(', ')
      : null,
    s.competition,
    s.venue,
  ]
    .filter((x): x is string => x !== null)
    .map((x) => clip(x, NAME_SHOWN * 4))
    .join(' · ');
  const text = description || 'Live score, box score and play-by-play on matchlog.';
  return html`<meta name="description" content="${text}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="matchlog">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${text}">
<meta property="og:url" content="${view.publicUrl}">
<meta property="og:image" content="${view.publicUrl}/card.png?revision=${view.revision}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="${CARD_WIDTH}">
<meta property="og:image:height" content="${CARD_HEIGHT}">
<meta property="og:image:alt" content="${title}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:image" content="${view.publicUrl}/card.png?revision=${view.revision}">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${text}">
<link rel="canonical" href="${view.publicUrl}">`;
}

export function renderMatchPage(view: MatchPageView): string {
  const s = view.summary;
  const title = headline(view.id, s);
  const page = layout(
    view.asOf ? `${title} (revision ${view.asOf.revision})` : title,
    html`${liveBar(view)}
${new SafeHtml(renderMatchMain(view))}
${view.asOf ? '' : share(view)}
<p class="muted small"><a href="${jsonUrl(view)}">This match as JSON</a> · <a href="${historyUrl(view.id)}">History</a></p>`,
    'match',
    { head: sharingCard(view), scripts: ['/assets/live.js'] },
  );
  return fits(page, PAGE_BYTES) ? page : tooLargePage(view);
}

/**
 * A page of plays on its own (`/match/:id?part=plays&page=N`): page 1 has the newest plays, as
 * the match page does; each is as bounded as the match page's. Null when there is no page N.
 */
export function renderPlaysPage(view: MatchPageView, number: number): string | null {
  const plays = Number.isSafeInteger(number) && number >= 1 ? playByPlay(view, number) : null;
  if (plays === null) return null;
  const title = matchTitle(view.id, view.summary);
  const page = layout(
    `Play-by-play of ${title}`,
    html`<h1>Play-by-play of ${title}</h1>
<nav class="pages"><a href="/match/${view.id}">The match</a><a href="${jsonUrl(view)}">as JSON</a></nav>
${plays}`,
    'match',
  );
  return fits(page, PAGE_BYTES) ? page : tooLargePage(view, 'Its plays are too large to show here');
}

/** The last bound of any public page: a short page linking the JSON when the page would exceed PAGE_BYTES. */
export function tooLargePage(view: Pick<MatchPageView, 'id' | 'asOf'>, what = 'This match is too large to show in full'): string {
  return layout(
    `Match ${view.id}`,
    html`<h1>Match <code>${view.id}</code></h1>
<section class="notice" role="note"><h2>${what}</h2>
<p>Its page would be larger than ${PAGE_BYTES / 1024} KiB. <a href="${jsonUrl(view)}">See the whole match as JSON</a>.</p></section>`,
    'match',
  );
}

/** A public page's error: the status and message of the app's one error mapping. */
export function renderMatchErrorPage({ statusCode, title, message, headers }: Pick<ErrorAnswer, 'statusCode' | 'title' | 'message' | 'headers'>): string {
  // A 404 of the match pages is a missing match, unless no route has the address at all.
  const heading = statusCode === 404 && title !== NO_SUCH_PAGE ? 'Match not found' : title;
  // A refusal that passes (busy, too many at once) says when to come back, with a link that reloads the same address.
  const reload = headers['retry-after'] === undefined ? '' : html`<p><a class="reload" href="">Reload the page</a></p>`;
  return layout(heading, html`<h1>${heading}</h1><p>${message}</p>${reload}<p class="muted">HTTP ${statusCode}</p>`);
}
