import { type ActionLine, type ActionMark, RUNNING_SCORE } from '../../../domain/matchPayload.js';
import { html, SafeHtml } from '../../views/html.js';
import { thinned } from './scoreChart.js';

/**
 * Whole-match score charts, server-rendered SVG (no script): football's goals as a step chart
 * from 0–0 over the minutes, basketball's lead as one whole-game lead tracker (as FIBA LiveStats
 * draws it). Volleyball keeps one small chart per set (scoreChart.ts).
 */

type Side = 'home' | 'away';
const MARK = /^(\d+)(?:\+(\d+))?'$/;

/** The minute of a football mark ("67'" → 67, "45+2'" → 47), or null. */
function markMinute(clock: string | null): number | null {
  const m = clock === null ? null : MARK.exec(clock);
  return m === null ? null : Number(m[1]) + Number(m[2] ?? 0);
}

export interface GoalLine {
  side: Side;
  /** The minute mark as shown ("67'"), or null when the feed gives none. */
  mark: string | null;
  minute: number | null;
  playerId: string | null;
  playerName: string | null;
  kind: 'goal' | 'ownGoal' | 'yellowCard' | 'secondYellow' | 'redCard';
  /** A goal from the penalty spot (its line's words say "Goal (pen)", statVocabulary.ts). */
  penalty: boolean;
}

const other = (side: Side): Side => (side === 'home' ? 'away' : 'home');
const sideOf = (team: string | null): Side | null => (team === 'home' || team === 'away' ? team : null);

/**
 * Goals and cards of a football match, in order, each on the side it counts for: a goal for its
 * team, an own goal for the other team (StatsBomb's "Own Goal For" only where no "Own Goal
 * Against" names the player). Linear in the actions.
 */
export function goalsAndCards(actions: readonly ActionLine[]): GoalLine[] {
  const hasOwnGoalAgainst = actions.some((a) => a.event === 'ownGoal');
  const lines: GoalLine[] = [];
  for (const a of actions) {
    const team = sideOf(a.team);
    if (a.event === null || team === null) continue;
    const base = {
      mark: a.clock,
      minute: markMinute(a.clock),
      playerId: a.playerId,
      playerName: a.playerName,
      penalty: a.description.startsWith('Goal (pen)'),
    };
    if (a.event === 'ownGoal') lines.push({ ...base, side: other(team), kind: 'ownGoal' });
    else if (a.event === 'ownGoalFor') {
      if (!hasOwnGoalAgainst) lines.push({ ...base, side: team, kind: 'ownGoal' });
    } else lines.push({ ...base, side: team, kind: a.event });
  }
  return lines;
}

interface StepPoint {
  minute: number;
  home: number;
  away: number;
}

/** The running score over the minutes, from 0–0: the actions' own scores when they carry them, else the goals. */
function goalSteps(actions: readonly ActionLine[]): StepPoint[] {
  const steps: StepPoint[] = [{ minute: 0, home: 0, away: 0 }];
  let last = steps[0]!;
  const scored = actions.some((a) => a.score !== null && RUNNING_SCORE.test(a.score));
  if (scored) {
    for (const a of actions) {
      const m = a.score === null ? null : RUNNING_SCORE.exec(a.score);
      const minute = markMinute(a.clock);
      if (m === null || minute === null) continue;
      const point = { minute, home: Number(m[1]), away: Number(m[2]) };
      if (point.home === last.home && point.away === last.away) continue;
      last = point;
      steps.push(point);
    }
    return steps;
  }
  for (const goal of goalsAndCards(actions)) {
    if ((goal.kind !== 'goal' && goal.kind !== 'ownGoal') || goal.minute === null) continue;
    last = { minute: goal.minute, home: last.home + (goal.side === 'home' ? 1 : 0), away: last.away + (goal.side === 'away' ? 1 : 0) };
    steps.push(last);
  }
  return steps;
}

const W = 400;
const H = 130;
const PAD = { left: 22, right: 8, top: 8, bottom: 20 };

/** Football's score as two step lines from 0–0 at kick-off to the final whistle; null without goals or minutes. */
export function goalChart(
  actions: readonly ActionLine[],
  homeName: string,
  awayName: string,
  final: { home: number | null; away: number | null },
): SafeHtml | null {
  const steps = goalSteps(actions);
  if (steps.length < 2) return null;
  const last = steps.at(-1)!;
  const end = Math.max(90, last.minute + 1, ...actions.map((a) => markMinute(a.clock) ?? 0));
  const top = Math.max(last.home, last.away, final.home ?? 0, final.away ?? 0, 1);
  const x = (minute: number) => PAD.left + (Math.min(minute, end) / end) * (W - PAD.left - PAD.right);
  const y = (goals: number) => H - PAD.bottom - (goals / top) * (H - PAD.top - PAD.bottom);
  const step = (side: Side) => {
    let d = `M${x(0).toFixed(1)},${y(0).toFixed(1)}`;
    for (const p of steps.slice(1)) d += `H${x(p.minute).toFixed(1)}V${y(p[side]).toFixed(1)}`;
    return `${d}H${x(end).toFixed(1)}`;
  };
  const ticks = [0, 45, 90, ...(end > 100 ? [105, 120].filter((m) => m <= end) : [])];
  const grid = [
    ...Array.from(
      { length: top + 1 },
      (_, g) =>
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(g).toFixed(1)}" y2="${y(g).toFixed(1)}" class="grid"/>\
<text x="${PAD.left - 5}" y="${(y(g) + 4).toFixed(1)}" text-anchor="end">${g}</text>`,
    ),
    ...ticks.map(
      (m) =>
        `<line x1="${x(m).toFixed(1)}" x2="${x(m).toFixed(1)}" y1="${PAD.top}" y2="${H - PAD.bottom}" class="grid"/>\
<text x="${x(m).toFixed(1)}" y="${H - 6}" text-anchor="middle">${m}'</text>`,
    ),
  ].join('');
  const label = `Goals over the match: ${steps
    .slice(1)
    .map((p) => `${p.home}–${p.away} at ${p.minute}'`)
    .join(', ')}; ${homeName} ${last.home}, ${awayName} ${last.away}`;
  return html`<figure class="chart wide"><figcaption>Goals by minute <span class="muted">${last.home}–${last.away}</span></figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">${new SafeHtml(grid)}\
<path d="${step('away')}" class="away"/><path d="${step('home')}" class="home"/></svg></figure>`;
}

/**
 * Basketball's lead over the whole game, as one chart: the home side's lead above the line, the
 * visitors' below, a step at every score, quarters marked. At most `maxPoints` scores drawn
 * (thinned, keeping every change of lead). Null with fewer than two running scores.
 */
export function leadTracker(marks: readonly ActionMark[], homeName: string, awayName: string, maxPoints: number, maxPhases: number): SafeHtml | null {
  const all: { home: number; away: number; phase: string | null; at: number }[] = [];
  const phases: string[] = [];
  for (const a of marks) {
    if (a.home === null || a.away === null) continue;
    if (a.phase !== null && phases.at(-1) !== a.phase) {
      if (phases.length >= maxPhases) break;
      phases.push(a.phase);
    }
    const point = { home: a.home, away: a.away, phase: a.phase, at: all.length };
    const previous = all.at(-1);
    if (previous === undefined || previous.home !== point.home || previous.away !== point.away || previous.phase !== point.phase) all.push(point);
  }
  if (all.length < 2) return null;
  const length = all.length;
  const points = thinned(all, maxPoints);
  const leads = points.map((p) => p.home - p.away);
  const most = Math.max(5, ...leads.map(Math.abs));
  const x = (at: number) => PAD.left + (at / Math.max(length - 1, 1)) * (W - PAD.left - PAD.right);
  const y = (lead: number) => PAD.top + ((most - lead) / (2 * most)) * (H - PAD.top - PAD.bottom);
  const area = (clamp: (lead: number) => number) => {
    let d = `M${x(0).toFixed(1)},${y(0).toFixed(1)}`;
    for (const p of points) d += `H${x(p.at).toFixed(1)}V${y(clamp(p.home - p.away)).toFixed(1)}`;
    return `${d}H${x(length - 1).toFixed(1)}V${y(0).toFixed(1)}Z`;
  };
  const starts = points.filter((p, i) => i === 0 || p.phase !== points[i - 1]!.phase);
  const grid = [
    ...[most, 0, -most].map(
      (lead) =>
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(lead).toFixed(1)}" y2="${y(lead).toFixed(1)}" class="grid${lead === 0 ? ' zero' : ''}"/>\
<text x="${PAD.left - 5}" y="${(y(lead) + 4).toFixed(1)}" text-anchor="end">${Math.abs(lead)}</text>`,
    ),
    ...starts.map(
      (p) =>
        `<line x1="${x(p.at).toFixed(1)}" x2="${x(p.at).toFixed(1)}" y1="${PAD.top}" y2="${H - PAD.bottom}" class="grid"/>\
<text x="${(x(p.at) + 3).toFixed(1)}" y="${H - 6}">${escapeSvg(p.phase ?? '')}</text>`,
    ),
  ].join('');
  const biggest = (side: Side) => Math.max(0, ...leads.map((l) => (side === 'home' ? l : -l)));
  const lastPoint = all.at(-1)!;
  const label = `Lead over the game: ${homeName} led by up to ${biggest('home')}, \
${awayName} by up to ${biggest('away')}; final ${lastPoint.home}–${lastPoint.away}`;
  return html`<figure class="chart wide lead"><figcaption>Lead tracker <span class="muted">${homeName} above, ${awayName} below</span></figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">${new SafeHtml(grid)}\
<path d="${area((l) => Math.max(l, 0))}" class="lead-home"/>\
<path d="${area((l) => Math.min(l, 0))}" class="lead-away"/></svg></figure>`;
}

const escapeSvg = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
