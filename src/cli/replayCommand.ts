import { diffMatch, type MatchDiff } from '../domain/matchDiff.js';
import { summarizeMatch } from '../domain/matchPayload.js';
import type { PublicEvent } from '../history/publicEvent.js';
import type { CliCommand } from './command.js';
import { eachMatchEvent } from './stores.js';

const n = (value: number | null) => (value === null ? '–' : String(value));
const INDENT = '       ';

function headline(payload: unknown): string {
  const s = summarizeMatch(payload);
  const lines = s.lines.map((l) => `${n(l.home)}–${n(l.away)}`).join(', ');
  return [
    `${s.home.name ?? 'Home'} ${n(s.home.score)} : ${n(s.away.score)} ${s.away.name ?? 'Away'}${s.scoreUnit === 'sets' ? ' (sets)' : ''}`,
    lines && `${s.lines[0]?.label.startsWith('Set') ? 'sets' : 'periods'} ${lines}`,
    `${s.players.length} players`,
    `${s.actions().length} actions`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A diff as lines for a terminal: every score change and every stat change, one per line. */
function diffLines(diff: MatchDiff): string[] {
  const out: string[] = [];
  if (diff.score) out.push(`score ${n(diff.score.home.from)}:${n(diff.score.away.from)} → ${n(diff.score.home.to)}:${n(diff.score.away.to)}`);
  for (const l of diff.lines) out.push(`${l.label} ${n(l.home.from)}–${n(l.away.from)} → ${n(l.home.to)}–${n(l.away.to)}`);
  for (const s of diff.stats) out.push(`${s.player}: ${s.stat} ${n(s.from)} → ${n(s.to)}`);
  const { added, removed, changed, before, after } = diff.actions;
  if (added || removed || changed) out.push(`actions ${before} → ${after} (+${added} −${removed}, ${changed} edited)`);
  for (const f of diff.fields) out.push(`${f.field} ${f.change}`);
  return out.length > 0 ? out : ['no change'];
}

function eventLine(e: PublicEvent): string {
  const what = e.content ? `${e.type} by ${e.content.via}${e.content.protection ? ` (${e.content.protection})` : ''}` : e.type;
  const origin = [e.clientAddressClass, e.requestId && `request ${e.requestId}`].filter(Boolean).join(', ');
  return `rev ${String(e.revision).padEnd(3)} ${e.recordedAt}  ${what}${origin ? `  [${origin}]` : ''}`;
}

export const replayCommand: CliCommand = {
  name: 'replay',
  summary: 'print every version of a match and what changed, for a person at a terminal',
  usage: 'matchlog replay <matchId>',
  async run(args, io) {
    let previous: unknown;
    let count = 0;
    const code = await eachMatchEvent(args, io, this.usage, (event, index, matchId) => {
      if (index === 0) io.out(`match ${matchId}\n\n`);
      count = index + 1;
      io.out(`${eventLine(event)}\n`);
      if (event.details) io.out(`${INDENT}${Object.entries(event.details).map(([k, v]) => `${k}=${String(v)}`).join(' ')}\n`);
      if (!event.content) return;
      const payload: unknown = JSON.parse(event.content.payloadText);
      const lines = previous === undefined ? [headline(payload)] : [headline(payload), ...diffLines(diffMatch(previous, payload)).map((l) => `  ${l}`)];
      for (const line of lines) io.out(`${INDENT}${line}\n`);
      previous = payload;
    });
    if (code === 0) io.out(`\n${count} events\n`);
    return code;
  },
};
