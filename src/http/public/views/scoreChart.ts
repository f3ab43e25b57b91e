import type { ActionLine } from '../../../domain/matchPayload.js';
import { html, SafeHtml } from '../../views/html.js';

export interface PhaseScores {
  phase: string;
  /** Running score after each action that carries one, in order. */
  points: { home: number; away: number }[];
}

const RUNNING = /^(\d+)–(\d+)$/;

/** Running scores per set or period, from the play-by-play (the reader writes them as "8–6"). */
export function phaseScores(actions: ActionLine[]): PhaseScores[] {
  const phases = new Map<string, PhaseScores>();
  for (const action of actions) {
    const m = action.score === null ? null : RUNNING.exec(action.score);
    if (m === null || action.phase === null) continue;
    const entry = phases.get(action.phase) ?? { phase: action.phase, points: [] };
    const point = { home: Number(m[1]), away: Number(m[2]) };
    const last = entry.points.at(-1);
    if (last === undefined || last.home !== point.home || last.away !== point.away) entry.points.push(point);
    phases.set(action.phase, entry);
  }
  return [...phases.values()].filter((p) => p.points.length > 1);
}

const W = 320;
const H = 120;
const PAD = { left: 26, right: 8, top: 8, bottom: 18 };

/**
 * One small chart per set or period: each team's running score, server-rendered SVG (no
 * script). Text alternative: the final score of the phase, in the aria-label.
 */
export function scoreChart(p: PhaseScores, homeName: string, awayName: string): SafeHtml {
  const first = p.points[0]!;
  const last = p.points.at(-1)!;
  const base = Math.min(first.home, first.away);
  const top = Math.max(last.home, last.away, base + 1);
  const x = (i: number) => PAD.left + (i / Math.max(p.points.length - 1, 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - ((v - base) / (top - base)) * (H - PAD.top - PAD.bottom);
  const line = (side: 'home' | 'away') => p.points.map((pt, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(pt[side]).toFixed(1)}`).join('');
  const label = `${p.phase}: ${homeName} ${last.home}, ${awayName} ${last.away}`;
  const grid = [base, Math.round((base + top) / 2), top]
    .map((v) => `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="grid"/><text x="${PAD.left - 4}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text>`)
    .join('');
  return html`<figure class="chart"><figcaption>${p.phase} <span class="muted">${last.home}–${last.away}</span></figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">${new SafeHtml(grid)}<path d="${line('away')}" class="away"/><path d="${line('home')}" class="home"/></svg></figure>`;
}
