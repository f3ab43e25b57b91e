import { clip } from '../../../../domain/clippedText.js';
import { html, type SafeHtml } from '../../../views/html.js';
import { NAME_SHOWN } from '../../../views/renderCaps.js';
import { CARD_HEIGHT, CARD_WIDTH } from '../shareCard.js';
import { headline, type MatchPageView, scoreText, shownLines, statusOf } from './matchPageView.js';

/** The page's head for link previews (Open Graph, Twitter cards): title, description and the card image of its revision. */
export function sharingCard(view: MatchPageView): SafeHtml {
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
