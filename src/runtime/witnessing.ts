import { join } from 'node:path';
import { parseCosignatureVerifierKey } from '../domain/cosignature.js';
import type { CheckpointSigner } from '../history/checkpointSigner.js';
import { cosignedCheckpointWriter, readCosignedCheckpoint } from '../history/cosignedCheckpointFile.js';
import { type CosignedCheckpoint, createCosignedCheckpoints } from '../history/cosignedCheckpoints.js';
import { type LogProofs, readTreeHead } from '../history/logProofs.js';
import { createWitnessSubmitter } from '../history/witnessSubmitter.js';
import type { ReadModelReader } from '../readmodel/readModel.js';
import type { ReportedCommits } from '../readmodel/reportedCommits.js';
import { LOG_HEAD } from '../readmodel/transparencyLogDocs.js';
import type { Config } from './config.js';

/** The newest cosigned checkpoint's file in DATA_DIR. */
const COSIGNED_CHECKPOINT_FILE = 'cosigned-checkpoint.note';

/** A request to a witness is cut off after this; it then backs off (src/domain/witnessSchedule.ts). */
const WITNESS_TIMEOUT_MS = 5000;

/**
 * The log's witnesses (LOG_WITNESSES, docs/auditing.md), or null when it has none: the
 * submitter, the cosigned checkpoints it collects (kept in DATA_DIR), and what a write's receipt
 * waits for. The submitter hears this process's tree commits at once and reads the head every
 * `pollMs` for those of projection workers.
 */
export function startWitnessing(deps: {
  config: Pick<Config, 'logWitnesses' | 'logWitnessQuorum' | 'dataDir' | 'readYourWritesTimeoutMs'>;
  checkpoints: CheckpointSigner;
  proofs: LogProofs;
  readModel: Pick<ReadModelReader, 'get'>;
  commits: ReportedCommits | null;
  log: { warn(fields: object, message: string): void };
}) {
  const { config, checkpoints, proofs, readModel, commits, log } = deps;
  if (config.logWitnesses.length === 0) return null;
  const witnesses = config.logWitnesses.map(({ url, key }) => {
    const verifier = parseCosignatureVerifierKey(key);
    return { name: verifier.name, url, verifier };
  });
  const file = join(config.dataDir, COSIGNED_CHECKPOINT_FILE);
  const cosigned = createCosignedCheckpoints({
    quorum: config.logWitnessQuorum,
    witnessOrder: witnesses.map(({ name }) => name),
    initial: readCosignedCheckpoint(file, checkpoints.origin),
    onNewest: cosignedCheckpointWriter(file, (error) => log.warn({ err: error }, `witness: keeping the cosigned checkpoint in ${file} failed`)),
  });
  const submitter = createWitnessSubmitter({
    witnesses,
    quorum: config.logWitnessQuorum,
    readHead: () => readTreeHead(readModel),
    sign: (head) => (checkpoints.behind(head) === null ? checkpoints.sign(head) : null),
    consistencyProof: proofs.consistencyProof,
    cosigned,
    log,
    timeoutMs: WITNESS_TIMEOUT_MS,
    pollMs: commits === null ? 200 : 1000,
  });
  const stopHearing =
    commits?.(({ changes }) => {
      if (changes === null || changes.some(({ collection }) => collection === LOG_HEAD)) submitter.headMoved();
    }) ?? (() => {});
  return {
    /** The newest checkpoint the quorum cosigned, or null before the first. */
    newest: (): CosignedCheckpoint | null => cosigned.newest(),
    /**
     * For a write's receipt: the newest cosigned checkpoint once it includes the leaf, waiting up
     * to READ_YOUR_WRITES_TIMEOUT_MS only while the quorum answers (a witness that is down never
     * holds a write up).
     */
    cosignedWith: (index: number) => cosigned.waitFor(index, submitter.quorumAnswering() ? config.readYourWritesTimeoutMs : 0),
    async close() {
      stopHearing();
      await submitter.close();
    },
  };
}
