import type { CliCommand } from './command.js';
import { eachMatchEvent } from './stores.js';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'print the full history of a match as NDJSON, one event per line',
  usage: 'matchlog export <matchId>',
  run(args, io) {
    return eachMatchEvent(args, io, this.usage, ({ content, details, ...event }, _index, matchId) => {
      const line = {
        matchId,
        ...event,
        ...(content ? { via: content.via, ...(content.protection ? { protection: content.protection } : {}), payload: JSON.parse(content.payloadText) as unknown } : {}),
        ...(details ? { details } : {}),
      };
      io.out(`${JSON.stringify(line)}\n`);
    });
  },
};
