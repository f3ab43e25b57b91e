import { diffItems, diffMatch, type MatchDiff } from '../domain/matchDiff.js';
import { summarizeMatch } from '../domain/matchPayload.js';
import type { PublicEvent } from '../domain/publicEvent.js';
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

/** A diff as lines for a terminal: what the history shows, every stat change on a line of its own (src/domain/matchDiff.ts). */
function diffLines(diff: MatchDiff): string[] {
  const items = diffItems(diff, 'each');
  return items.length > 0 ? items : ['no change'];
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
      if (event.details)
        io.out(
          `${INDENT}${Object.entries(event.details)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(' ')}\n`,
        );
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
