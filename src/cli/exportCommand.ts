import { asJsonText } from '../domain/jsonText.js';
import { payloadDigest } from '../domain/payloadDigest.js';
import type { PublicEvent } from '../history/publicEvent.js';
import type { CliCommand } from './command.js';
import { eachMatchEvent } from './stores.js';

/**
 * A version's fields on its line: how it came, its payload, and the payload's SHA-256 digest as
 * stored with it (`verify` checks each against its text), or, for versions stored before digests
 * were kept, computed from the text, said by `payloadDigestComputed: true`.
 */
function versionFields(content: NonNullable<PublicEvent['content']>) {
  const stored = content.payloadDigest;
  return {
    via: content.via,
    ...(content.protection ? { protection: content.protection } : {}),
    payloadDigest: stored ?? payloadDigest(asJsonText(content.payloadText)),
    ...(stored === null ? { payloadDigestComputed: true } : {}),
    payload: JSON.parse(content.payloadText) as unknown,
  };
}

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'print the full history of a match as NDJSON, one event per line, each version with its payload digest',
  usage: 'matchlog export <matchId>',
  run(args, io) {
    return eachMatchEvent(args, io, this.usage, ({ content, details, ...event }, _index, matchId) => {
      const line = {
        matchId,
        ...event,
        ...(content ? versionFields(content) : {}),
        ...(details ? { details } : {}),
      };
      io.out(`${JSON.stringify(line)}\n`);
    });
  },
};
