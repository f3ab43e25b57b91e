import { allProjections } from '../../projections/all.js';
import { rebuildProjection, type ReplayProgress } from '../../projections/replay.js';
import type { CliCommand, CliIo } from './command.js';
import { openStores } from './stores.js';

/** A progress bar on a terminal; a line every few seconds otherwise (logs, CI). */
function progressReporter(io: CliIo, name: string, isTty: boolean) {
  const started = Date.now();
  let lastLine = 0;
  return (p: ReplayProgress) => {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(p.events / seconds) : 0;
    const done = p.until ? Math.min(1, (p.position ?? 0) / p.until) : 1;
    const text = `${name} ${'█'.repeat(Math.round(done * 30)).padEnd(30, '░')} ${(done * 100).toFixed(0).padStart(3)}% ${p.events} events ${rate} events/s`;
    if (isTty) io.err(`\r${text}`);
    else if (Date.now() - lastLine > 2000) {
      lastLine = Date.now();
      io.err(`${text}\n`);
    }
  };
}

export const rebuildCommand: CliCommand = {
  name: 'rebuild',
  summary: 'rebuild read models from the log into a fresh copy, then switch (the service keeps serving)',
  usage:
    'matchlog rebuild [--start-over] [projection]   (projections: ' +
    allProjections.map((p) => p.name).join(', ') +
    ')\n  --start-over   empty the live read model and its checkpoint instead; running projections replay the log into it',
  async run(args, io) {
    const unknownOption = args.find((a) => a.startsWith('-') && a !== '--start-over');
    if (unknownOption !== undefined) {
      io.err(`unknown option "${unknownOption}"; usage: ${rebuildCommand.usage}\n`);
      return 2;
    }
    const startOver = args.includes('--start-over');
    const [name] = args.filter((a) => !a.startsWith('-'));
    const selected = name === undefined ? allProjections : allProjections.filter((p) => p.name === name);
    if (selected.length === 0) {
      io.err(`unknown projection "${name}"; known: ${allProjections.map((p) => p.name).join(', ')}\n`);
      return 2;
    }
    const stores = await openStores(io.env);
    try {
      if (startOver) {
        for (const projection of selected) {
          // One atomic step in either store: a runner committing meanwhile is told its checkpoint moved.
          await stores.readModel.reset(projection.name, projection.collections);
          io.out(`started ${projection.name} over: its read model is empty, and running projections replay the log into it\n`);
        }
        return 0;
      }
      for (const projection of selected) {
        const started = process.hrtime.bigint();
        const result = await rebuildProjection(
          projection,
          stores.eventStore,
          stores.readModel,
          progressReporter(io, projection.name, process.stderr.isTTY === true),
        );
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        if (process.stderr.isTTY) io.err('\n');
        const rate = seconds > 0 ? Math.round(result.events / seconds) : result.events;
        const age = ((Date.now() - result.currentAt.getTime()) / 1000).toFixed(2);
        io.out(
          `rebuilt ${projection.name}: ${result.events} events in ${seconds.toFixed(2)} s (${rate} events/s); ` +
            `switched in at position ${String(result.position)}, ` +
            `the log's end at ${result.currentAt.toISOString()} (${age} s before the switch); running projections apply what came after\n`,
        );
      }
      return 0;
    } finally {
      await stores.close();
    }
  },
};
