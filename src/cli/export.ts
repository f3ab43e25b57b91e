import { isMatchId, MATCH_ID_RULE } from '../domain/matchId.js';
import { matchEvents } from '../history/matchHistory.js';
import type { CliCommand } from './command.js';
import { matchIdArgument, openStores } from './stores.js';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'print the full history of a match as NDJSON, one event per line',
  usage: 'matchlog export <matchId>',
  async run(args, io) {
    const matchId = matchIdArgument(args, this.usage);
    if (!isMatchId(matchId)) throw new Error(MATCH_ID_RULE);
    const stores = await openStores(io.env);
    try {
      let count = 0;
      for await (const event of matchEvents(stores.eventStore, matchId)) {
        const { content, details, ...rest } = event;
        const line = {
          matchId,
          ...rest,
          ...(content ? { via: content.via, ...(content.protection ? { protection: content.protection } : {}), payload: JSON.parse(content.payloadText) as unknown } : {}),
          ...(details ? { details } : {}),
        };
        io.out(`${JSON.stringify(line)}\n`);
        count += 1;
      }
      if (count === 0) {
        io.err(`no match with id "${matchId}"\n`);
        return 1;
      }
      return 0;
    } finally {
      await stores.close();
    }
  },
};
