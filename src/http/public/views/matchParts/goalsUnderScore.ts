import { clip } from '../../../../domain/clippedText.js';
import { familyName } from '../../../../domain/shortNames.js';
import { html, type SafeHtml } from '../../../views/html.js';
import { EVENTS_SHOWN, NAME_SHOWN } from '../../../views/renderCaps.js';
import { goalsAndCards, type GoalLine } from '../matchFlow.js';
import { type MatchPageView, teamName } from './matchPageView.js';

/**
 * Football's scorers and cards under the score, each side under its team, as broadcasters show
 * them ("Köhler 23', 67'"; "Demiral (og) 53'"), at most EVENTS_SHOWN lines a side.
 */
export function goalsUnderScore(view: MatchPageView): SafeHtml | string {
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
