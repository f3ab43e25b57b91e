import type { ActionMark } from '../../../domain/matchPayload.js';
import { html, SafeHtml } from '../../views/html.js';

export interface PhaseScores {
  phase: string;
  /** Running score after each action that carries one, in order (thinned to at most the cap given). */
  points: { home: number; away: number; at: number }[];
  /** How many running scores the phase had before thinning: `at` counts among them. */
  length: number;
}

/**
 * Running scores per set or period, from the play-by-play's marks (the scores its lines show as
 * "8–6"): at most `maxPhases` phases (the first ones), each thinned to at most `maxPoints` points.
 */
export function phaseScores(marks: readonly ActionMark[], maxPhases = Number.POSITIVE_INFINITY, maxPoints = Number.POSITIVE_INFINITY): PhaseScores[] {
  const phases = new Map<string, PhaseScores>();
  for (const mark of marks) {
    if (mark.home === null || mark.away === null || mark.phase === null) continue;
    let entry = phases.get(mark.phase);
    if (entry === undefined) {
      if (phases.size >= maxPhases) continue;
      entry = { phase: mark.phase, points: [], length: 0 };
      phases.set(mark.phase, entry);
    }
    const point = { home: mark.home, away: mark.away, at: entry.points.length };
    const last = entry.points.at(-1);
    if (last === undefined || last.home !== point.home || last.away !== point.away) entry.points.push(point);
  }
  const charted = [...phases.values()].filter((p) => p.points.length > 1);
  for (const p of charted) {
    p.length = p.points.length;
    p.points = thinned(p.points, maxPoints);
  }
  return charted;
}

const lead = (p: { home: number; away: number }) => Math.sign(p.home - p.away);

/**
 * At most `max` of the points (max ≥ 2): the first, the last and every change of lead, then
 * evenly spaced others while room is left; when the lead changes alone are too many, evenly
 * spaced ones among them. Linear in the points.
 */
export function thinned<P extends { home: number; away: number }>(points: P[], max: number): P[] {
  if (points.length <= max) return points;
  const keep = new Uint8Array(points.length);
  const turns: number[] = [];
  for (let i = 1; i < points.length - 1; i += 1) if (lead(points[i]!) !== lead(points[i - 1]!)) turns.push(i);
  const room = max - 2;
  if (turns.length >= room) {
    for (let k = 0; k < room; k += 1) keep[turns[Math.floor((k * turns.length) / room)]!] = 1;
  } else {
    for (const i of turns) keep[i] = 1;
    const others = room - turns.length;
    const step = (points.length - 2) / others;
    for (let k = 0; k < others; k += 1) {
      let i = 1 + Math.floor(k * step);
      while (keep[i] === 1 && i < points.length - 2) i += 1;
      keep[i] = 1;
    }
  }
  keep[0] = 1;
  keep[points.length - 1] = 1;
  return points.filter((_, i) => keep[i] === 1);
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
  const x = (at: number) => PAD.left + (at / Math.max(p.length - 1, 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - ((v - base) / (top - base)) * (H - PAD.top - PAD.bottom);
  const line = (side: 'home' | 'away') => p.points.map((pt, i) => `${i === 0 ? 'M' : 'L'}${x(pt.at).toFixed(1)},${y(pt[side]).toFixed(1)}`).join('');
  const label = `${p.phase}: ${homeName} ${last.home}, ${awayName} ${last.away}`;
  const grid = [base, Math.round((base + top) / 2), top]
    .map(
      (v) =>
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="grid"/>\
<text x="${PAD.left - 4}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text>`,
    )
    .join('');
  return html`<figure class="chart"><figcaption>${p.phase} <span class="muted">${last.home}–${last.away}</span></figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">${new SafeHtml(grid)}\
<path d="${line('away')}" class="away"/><path d="${line('home')}" class="home"/></svg></figure>`;
}
