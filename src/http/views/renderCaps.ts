/**
 * What one rendered page may hold (docs/limits.md, "Rendered pages"). Realistic matches stay
 * under every cap, so they render as they always did; a payload built to be wide or long gets
 * a bounded page that says what it left out and links the match's JSON, which has everything.
 * Fixed constants, not settings: a rendered page is cached per revision and must not depend on
 * more than its document.
 */

/** Players in one side's box score (a volleyball or basketball roster is 12–15, a football squad ~25). */
export const PLAYERS_PER_SIDE = 60;
/** Play-by-play rows on one page of plays (a realistic match has 300–1,000); older ones are on further pages. */
export const PLAYS_PER_PAGE = 1_000;
/** Bytes of play-by-play rows on one page of plays: a page of very long rows ends early and links on. */
export const PLAYS_PAGE_BYTES = 256 * 1024;
/** Sets or periods rendered: line score columns, score charts, play-by-play groups on one page. */
export const PHASES_SHOWN = 40;
/** Points of one score chart: beyond it the line is thinned, keeping the first, the last and every lead change. */
export const CHART_POINTS = 300;
/** Football goal and card lines under the score, per side (a match has a handful); the rest are in the play-by-play. */
export const EVENTS_SHOWN = 30;
/** Characters of a name, title or label shown (team, player, venue, stat); the JSON has the whole value. */
export const NAME_SHOWN = 80;
/** Characters of a short field shown (shirt number, position, short team name, clock). */
export const SHORT_SHOWN = 16;
/**
 * Bytes of a whole public page (match page, embed, page of plays, history page); beyond it the
 * page is replaced by a short one that says the match is too large to show in full and links its JSON.
 */
export const PAGE_BYTES = 512 * 1024;
/** Characters of one version's "what changed" on the history page (a diff lists at most 100 changes). */
export const CHANGE_SHOWN = 1_000;
/** Rows of a dashboard table of matches, players or actions before "+k more". */
export const DASHBOARD_ROWS = 1_000;
/** Rows and stat columns of one CSV export; a final comment row says what was left out. */
export const CSV_ROWS = 20_000;
export const CSV_COLUMNS = 200;
/** Characters of one text cell of an export (CSV or its JSON twin). */
export const CSV_CELL_CHARS = 1_000;

/**
 * Whether a text's UTF-8 takes at most `bytes`; counted only when its length cannot tell
 * (a UTF-16 unit is at most 3 bytes), so a realistic page is not copied to be measured.
 */
export const fits = (text: string, bytes: number) => text.length * 3 <= bytes || (text.length <= bytes && Buffer.byteLength(text) <= bytes);

/** "+1 more player", "+12 more players". */
export const more = (count: number, one: string, many: string) => `+${count} more ${count === 1 ? one : many}`;
