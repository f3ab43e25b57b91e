import { ConfigError } from './configError.js';
import { parseCosignatureVerifierKey } from '../domain/cosignature.js';
import { isRecord } from '../platform/isRecord.js';

/** A witness the log submits its checkpoints to: its tlog-witness submission prefix and its cosignature verifier key. */
export interface WitnessSetting {
  url: string;
  key: string;
}

type Env = Record<string, string | undefined>;

const SHAPE = 'must be a JSON array of {"url": "<submission prefix>", "key": "<witness vkey>"}';

function witnessOf(item: unknown, at: number): WitnessSetting {
  if (!isRecord(item)) throw new ConfigError('LOG_WITNESSES', `${SHAPE}; item ${at} is not an object`);
  const { url, key, ...rest } = item;
  if (Object.keys(rest).length > 0) throw new ConfigError('LOG_WITNESSES', `${SHAPE}; item ${at} has ${Object.keys(rest).join(', ')} too`);
  if (typeof url !== 'string' || !/^https?:\/\//.test(url) || !URL.canParse(url))
    throw new ConfigError('LOG_WITNESSES', `${SHAPE}; item ${at}'s url is not an http or https URL`);
  if (typeof key !== 'string') throw new ConfigError('LOG_WITNESSES', `${SHAPE}; item ${at} has no key`);
  try {
    parseCosignatureVerifierKey(key);
  } catch (error) {
    throw new ConfigError('LOG_WITNESSES', `item ${at}'s key is not a witness vkey: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { url: url.replace(/\/+$/, ''), key: key.trim() };
}

/**
 * LOG_WITNESSES and LOG_WITNESS_QUORUM (docs/operations.md): the witnesses the log submits each
 * checkpoint to, and how many of them must cosign one before GET /api/log/checkpoint answers it
 * (default: all). None: checkpoints are answered signed by the log alone.
 */
export function witnessSettings(env: Env): { logWitnesses: WitnessSetting[]; logWitnessQuorum: number } {
  const raw = env.LOG_WITNESSES?.trim() || '[]';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('LOG_WITNESSES', `${SHAPE}; it is not JSON`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError('LOG_WITNESSES', SHAPE);
  const logWitnesses = parsed.map(witnessOf);
  const names = logWitnesses.map(({ key }) => parseCosignatureVerifierKey(key).name);
  const twice = names.find((name, at) => names.indexOf(name) !== at);
  if (twice !== undefined) throw new ConfigError('LOG_WITNESSES', `names the witness ${twice} twice`);
  const rawQuorum = env.LOG_WITNESS_QUORUM?.trim() || '';
  if (rawQuorum === '') return { logWitnesses, logWitnessQuorum: logWitnesses.length };
  const quorum = Number(rawQuorum);
  if (logWitnesses.length === 0) throw new ConfigError('LOG_WITNESS_QUORUM', 'is set but LOG_WITNESSES names no witness');
  if (!Number.isInteger(quorum) || quorum < 1 || quorum > logWitnesses.length)
    throw new ConfigError('LOG_WITNESS_QUORUM', `must be an integer from 1 to ${logWitnesses.length} (the witnesses in LOG_WITNESSES), got "${rawQuorum}"`);
  return { logWitnesses, logWitnessQuorum: quorum };
}
