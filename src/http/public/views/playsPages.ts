import type { ActionLine, ActionMark } from '../../../domain/matchPayload.js';
import { PHASES_SHOWN, PLAYS_PAGE_BYTES, PLAYS_PER_PAGE } from '../../views/renderCaps.js';

/** The play-by-play as a page reads it: its actions' count and marks, and the lines of the ones it shows (worded on first ask). */
export interface PlayByPlay {
  count: number;
  at(index: number): ActionLine;
  marks(): readonly ActionMark[];
}

/** Which actions one page of plays shows, as indexes into the play-by-play (oldest first). */
export interface PlaysPage {
  /** Actions newer than this page's newest: 0 for the match page. */
  from: number;
  start: number;
  end: number;
  /** `from` of the next, older page; null on the page with the first action. */
  next: number | null;
}

/**
 * A page of plays, newest first: the `from`-th newest action and older ones, until the page has
 * PLAYS_PER_PAGE rows, PLAYS_PAGE_BYTES of rows (as `rowBytes` estimates them) or PHASES_SHOWN
 * sets or periods; at least one action. Linear in the rows on the page. `from` must be below the
 * number of actions.
 */
export function playsPage(actions: Pick<PlayByPlay, 'count' | 'at'>, from: number, rowBytes: (action: ActionLine) => number): PlaysPage {
  const end = actions.count - from;
  const phases = new Set<string>();
  let start = end;
  let bytes = 0;
  while (start > 0 && end - start < PLAYS_PER_PAGE) {
    const action = actions.at(start - 1);
    const phase = action.phase ?? 'Match';
    if (!phases.has(phase) && phases.size === PHASES_SHOWN) break;
    bytes += rowBytes(action);
    if (bytes > PLAYS_PAGE_BYTES && start < end) break;
    phases.add(phase);
    start -= 1;
  }
  return { from, start, end, next: start > 0 ? from + (end - start) : null };
}

/** Bytes a text takes once HTML-escaped (each of & < > " ' becomes an entity of up to six). */
export function escapedLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 38 || c === 60 || c === 62 || c === 34 || c === 39) length += 5;
  }
  return length;
}
