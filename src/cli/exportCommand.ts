import { asJsonText } from '../domain/jsonText.js';
import { payloadDigest } from '../domain/payloadDigest.js';
import { decodeMatchEvent } from '../domain/matchEvents.js';
import { isMatchId, MATCH_ID_RULE, matchStreamId } from '../domain/matchId.js';
import { createCheckpointSigner } from '../history/checkpointSigner.js';
import { createLogProofs, leafOfEvent, readTreeHead } from '../history/logProofs.js';
import { largestSignedTree } from '../runtime/largestSignedTree.js';
import { publicEvent } from '../domain/publicEvent.js';
import { loadConfig } from '../runtime/config.js';
import { loadLogSigner } from '../runtime/logSigningKey.js';
import type { CliCommand } from './command.js';
import { openStores } from './stores.js';

/** A stored payload's text as the value it holds (JSON.parse, typed as what it is: not yet known). */
const parsedJson = (text: string): unknown => JSON.parse(text);

/**
 * A match's history as NDJSON, one event per line, each with its transparency-log entry, index
 * and inclusion proof in the tree of the signed checkpoint it carries (docs/auditing.md), and for
 * a version its exact text and salt: the archive verifies offline with the verifier key alone.
 */
export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'print the full history of a match as NDJSON, one event per line, with log entries and inclusion proofs',
  usage: 'matchlog export <matchId>',
  async run(args, io) {
    const [matchId, ...rest] = args.filter((a) => !a.startsWith('-'));
    if (matchId === undefined || rest.length > 0) throw new Error(`usage: ${this.usage}`);
    if (!isMatchId(matchId)) throw new Error(MATCH_ID_RULE);
    const config = loadConfig(io.env, { hashesWriteTokens: false });
    const checkpoints = createCheckpointSigner(loadLogSigner(config), largestSignedTree(config.dataDir));
    const stores = await openStores(io.env);
    const proofs = createLogProofs(stores.readModel);
    try {
      const head = await readTreeHead(stores.readModel);
      const checkpoint = checkpoints.sign(head);
      const streamId = matchStreamId(matchId);
      let count = 0;
      for (let from = 0; ; ) {
        const page = await stores.eventStore.readStream(streamId, { fromRevision: from, maxCount: 100 });
        for (const recorded of page) {
          count += 1;
          const { content, details, ...event } = publicEvent(recorded);
          const leaf = await leafOfEvent(stores.readModel, streamId, recorded.revision);
          const included = leaf !== null && leaf.index < head.size;
          const version = content === null ? null : decodeMatchEvent(recorded.type, recorded.data);
          const line = {
            matchId,
            ...event,
            ...(content
              ? {
                  via: content.via,
                  ...(content.protection ? { protection: content.protection } : {}),
                  // SHA-256 of the text as stored with it, or computed from the text (said so) for versions stored without it.
                  payloadDigest: content.payloadDigest ?? payloadDigest(asJsonText(content.payloadText)),
                  ...(content.payloadDigest === null ? { payloadDigestComputed: true } : {}),
                  payload: parsedJson(content.payloadText),
                }
              : {}),
            ...(details ? { details } : {}),
            ...(content ? { payloadText: content.payloadText, payloadSalt: version?.data.payloadSalt ?? '' } : {}),
            log: included
              ? {
                  index: leaf.index,
                  entry: leaf.entry,
                  treeSize: head.size,
                  inclusionProof: (await proofs.inclusionProof(leaf.index, head.size)).map((hash) => hash.toString('base64')),
                  checkpoint,
                }
              : null,
          };
          io.out(`${JSON.stringify(line)}\n`);
        }
        const last = page.at(-1);
        if (!last || page.length < 100) break;
        from = last.revision + 1;
      }
      if (count > 0) return 0;
      io.err(`no match with id "${matchId}"\n`);
      return 1;
    } finally {
      await stores.close();
    }
  },
};
