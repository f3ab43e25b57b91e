import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Cosigner, newCosignerKey, parseCosignerKey } from '../domain/cosignature.js';
import { createFileOnce, makePrivateDir } from '../platform/privateFiles.js';

/**
 * The witness's key in `dir` (witness.key, 0600, its signer key string), made on first start.
 * A key under another name is refused: a witness's name is part of every cosignature it made.
 */
export function loadWitnessKey(dir: string, name: string): Cosigner {
  makePrivateDir(dir);
  const file = join(dir, 'witness.key');
  createFileOnce(file, `${newCosignerKey(name).signerKey}\n`);
  const cosigner = parseCosignerKey(readFileSync(file, 'utf8'));
  if (cosigner.name !== name) throw new Error(`the witness key in ${file} is named ${cosigner.name}, not ${name}`);
  return cosigner;
}
