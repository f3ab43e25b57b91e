import { clip } from '../../../../domain/clippedText.js';
import type { ActionLine } from '../../../../domain/matchPayload.js';
import { sportOf } from '../../../../domain/statVocabulary.js';
import { html, SafeHtml } from '../../../views/html.js';
import { NAME_SHOWN, SHORT_SHOWN } from '../../../views/renderCaps.js';
import { escapedLength, type PlayByPlay, type PlaysPage, playsPage } from '../playsPages.js';
import { awayShort, homeShort, jsonUrl, type MatchPageView, playerName, playsUrl, teamName } from './matchPageView.js';

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

/**
 * One page of the play-by-play (playsPage: at most PLAYS_PER_PAGE rows, PLAYS_PAGE_BYTES,
 * PHASES_SHOWN sets or periods), newest first, grouped by set or period; older plays are
 * linked as further pages (only for the current version: an old one links its JSON).
 */
export function playByPlay(view: MatchPageView, number = 1): SafeHtml | null {
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
