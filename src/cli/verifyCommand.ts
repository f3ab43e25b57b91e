import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnreadableEventError } from '../eventstore/eventStore.js';
import { checkPayloadDigests } from '../history/payloadDigestCheck.js';
import { openSqliteReadModel } from '../readmodel/sqliteReadModel.js';
import { allProjections } from '../../projections/all.js';
import { verifyProjection } from '../../projections/verify.js';
import type { CliCommand } from './command.js';
import { openStores } from './stores.js';

const clip = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'rebuild every stored version and check it against its digest, replay the whole log into a scratch read model and compare it with the live one',
  usage: 'matchlog verify',
  async run(_args, io) {
    const stores = await openStores(io.env);
    const scratchDir = mkdtempSync(join(tmpdir(), 'matchlog-verify-'));
    const scratch = openSqliteReadModel(join(scratchDir, 'scratch.sqlite'));
    let total = 0;
    try {
      // Every version is rebuilt from its stored encoding (whole, deflated or a delta) before its digest is checked.
      let digests: Awaited<ReturnType<typeof checkPayloadDigests>>;
      try {
        digests = await checkPayloadDigests(stores.eventStore);
      } catch (error) {
        if (!(error instanceof UnreadableEventError)) throw error;
        io.out(`payloads: the log cannot be read from position ${error.position} on: ${error.message}\n`);
        io.out('FAILED: a stored version cannot be rebuilt; nothing after it was checked\n');
        return 1;
      }
      total += digests.mismatches.length;
      const older = digests.undigested > 0 ? `; ${digests.undigested} stored before digests were kept` : '';
      const matched =
        digests.mismatches.length === 0
          ? `${digests.checked} version(s) match their digests`
          : `${digests.mismatches.length} of ${digests.checked} version(s) do not match their digests`;
      io.out(`payloads: ${matched}${older}\n`);
      for (const m of digests.mismatches) io.out(`  ${m.streamId} revision ${m.revision}: the payload text is not what was stored\n`);
      for (const projection of allProjections) {
        const { checkpoint, differences } = await verifyProjection(projection, stores.eventStore, stores.readModel, scratch);
        total += differences.length;
        io.out(
          `${projection.name}: ${differences.length === 0 ? 'matches the log' : `${differences.length} difference(s)`} ` +
            `(checked at position ${String(checkpoint)})\n`,
        );
        for (const d of differences) {
          const where = d.problem === 'differs' ? ` at ${d.path}: live ${clip(d.live)}, log says ${clip(d.fromLog)}` : '';
          io.out(`  ${d.collection} ${d.id}: ${d.problem}${where}\n`);
        }
      }
      io.out(
        total === 0
          ? 'verified: every version is as stored, and every read model is exactly what the log says\n'
          : `FAILED: ${total} difference(s) between the log, its digests and the read models\n`,
      );
      return total === 0 ? 0 : 1;
    } finally {
      await scratch.close();
      rmSync(scratchDir, { recursive: true, force: true });
      await stores.close();
    }
  },
};
