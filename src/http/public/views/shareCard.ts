import { clip } from '../../../domain/clippedText.js';
import type { MatchSummary } from '../../../domain/matchPayload.js';
import { html } from '../../views/html.js';
import { SHOWN_STATUS_WORDS, type ShownStatus } from './matchStatus.js';

/** The size link previews use (Open Graph's recommended 1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** Characters of a team name on the card; longer names are drawn smaller, down to a third of the size. */
const CARD_NAME = 60;

/** A font size at which `text` fits `width` pixels (bold DejaVu Sans averages about 0.66 em a character). */
const fitting = (text: string, width: number, largest: number) =>
  Math.max(Math.round(largest / 3), Math.min(largest, Math.floor(width / (0.66 * Math.max(text.length, 1)))));

/**
 * The match as an SVG card for link previews, laid out as a scoreboard: a row per team (name,
 * score), the state and competition above, the sets or periods below. Text only in fonts every
 * server has (DejaVu, Liberation); colours of the light theme.
 */
export function shareCardSvg(s: MatchSummary, status: ShownStatus | null): string {
  const score = (n: number | null) => (n === null ? '–' : String(n));
  const row = (name: string, n: number | null, y: number, colour: string) => {
    const shown = clip(name, CARD_NAME);
    return html`<text x="60" y="${y}" font-size="${fitting(shown, 860, 64)}" font-weight="700" fill="${colour}">${shown}</text>\
<text x="${CARD_WIDTH - 60}" y="${y + 10}" text-anchor="end" font-size="110" font-weight="800" fill="#111827">${score(n)}</text>`;
  };
  const meta = [status === null ? null : SHOWN_STATUS_WORDS[status], s.competition, s.category].filter((x): x is string => x !== null).join(' · ');
  const lines =
    s.lines.length > 0 && s.lines.length <= 7 ? s.lines.map((l) => `${l.label.replace(/^Set /, 'S')} ${score(l.home)}–${score(l.away)}`).join(' · ') : '';
  return html`<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" \
font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">
<rect width="100%" height="100%" fill="#ffffff"/>
<rect width="100%" height="16" fill="#0f766e"/>
<text x="60" y="100" font-size="36" fill="#4b5563">${clip(meta, 56)}</text>
${row(s.home.name ?? 'Home', s.home.score, 250, '#0f766e')}
<line x1="60" x2="${CARD_WIDTH - 60}" y1="315" y2="315" stroke="#d1d5db" stroke-width="3"/>
${row(s.away.name ?? 'Away', s.away.score, 420, '#b4490b')}
<text x="60" y="510" font-size="36" fill="#4b5563">${clip(lines, 60)}</text>
<text x="60" y="590" font-size="30" font-weight="700" fill="#111827">matchlog</text>
</svg>`.value;
}

/**
 * The card as PNG, drawn by resvg (Rust, through napi) on libuv's thread pool, not the event
 * loop (about 20 ms for a card, most of it reading the system's fonts). Loaded on the first
 * card, not at start.
 */
export async function shareCardPng(svg: string): Promise<Buffer> {
  const { renderAsync } = await import('@resvg/resvg-js');
  const image = await renderAsync(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, fitTo: { mode: 'original' } });
  return image.asPng();
}
