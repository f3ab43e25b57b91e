import { parseArgs } from 'node:util';
import { cosignatureVerifierKeyString } from '../domain/cosignature.js';
import { type NoteVerifier, parseNoteVerifierKey } from '../domain/signedNote.js';
import { loadWitnessKey } from '../witness/witnessKey.js';
import { createWitnessServer } from '../witness/witnessServer.js';
import type { CliCommand } from './command.js';

const USAGE = 'matchlog witness --dir <folder> --host <host> --port <port> --name <witness name> --log <log verifier key> [--log …]';

/** The trusted keys by origin: a log's origin is its key's name (matchlog's and Go's sumdb convention). */
function trustedKeysOf(keys: string[]): Map<string, NoteVerifier[]> {
  const byOrigin = new Map<string, NoteVerifier[]>();
  for (const key of keys) {
    const verifier = parseNoteVerifierKey(key);
    byOrigin.set(verifier.name, [...(byOrigin.get(verifier.name) ?? []), verifier]);
  }
  return byOrigin;
}

const signalled = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

/**
 * A C2SP tlog-witness for other logs (docs/auditing.md, "Running a witness"): cosigns each
 * checkpoint of a trusted log that is consistent with the last one it cosigned. Its first line
 * of output is its verifier key; it runs until SIGINT or SIGTERM.
 */
export const witnessCommand: CliCommand = {
  name: 'witness',
  summary: "serve C2SP tlog-witness add-checkpoint: cosign other logs' checkpoints that only grew",
  usage: USAGE,
  async run(args, io) {
    let options;
    try {
      options = parseArgs({
        args,
        options: {
          dir: { type: 'string' },
          host: { type: 'string', default: '127.0.0.1' },
          port: { type: 'string' },
          name: { type: 'string' },
          log: { type: 'string', multiple: true, default: [] },
        },
      }).values;
    } catch (error) {
      io.err(`matchlog witness: ${error instanceof Error ? error.message : String(error)}\nusage: ${USAGE}\n`);
      return 2;
    }
    const { dir, host, port, name, log } = options;
    const portNumber = Number(port);
    if (dir === undefined || name === undefined || log.length === 0 || !Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535) {
      io.err(`usage: ${USAGE}\n`);
      return 2;
    }
    let server;
    try {
      const cosigner = loadWitnessKey(dir, name);
      const trustedKeys = trustedKeysOf(log);
      server = createWitnessServer({ dir, cosigner, trustedKeys, reportError: (error) => io.err(`matchlog witness: ${String(error)}\n`) });
      io.out(`witness key: ${cosignatureVerifierKeyString(cosigner)}\n`);
    } catch (error) {
      io.err(`matchlog witness: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    const listening = server;
    const stop = signalled();
    try {
      await new Promise<void>((resolve, reject) => listening.once('error', reject).listen(portNumber, host, resolve));
    } catch (error) {
      io.err(`matchlog witness: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    const listeningOn = listening.address();
    const bound = listeningOn !== null && typeof listeningOn === 'object' ? listeningOn.port : listeningOn;
    const address = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
    const origins = [...new Set(log.map((key) => key.split('+')[0]))].join(', ');
    io.out(`witness listening on ${address}/add-checkpoint for ${origins}\n`);
    await stop;
    await new Promise<void>((resolve) => listening.close(() => resolve()));
    return 0;
  },
};
