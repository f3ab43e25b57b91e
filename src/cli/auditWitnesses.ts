import { type CosignatureVerifier, openCosignature, parseCosignatureVerifierKey } from '../domain/cosignature.js';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A duration such as `90s`, `10m`, `2h` or `1d`, in seconds; null when it is not one. */
function parseDuration(text: string): number | null {
  const match = /^([1-9][0-9]{0,8})([smhd])$/.exec(text);
  return match === null ? null : Number(match[1]) * UNITS[match[2]!]!;
}

const ago = (seconds: number) => (seconds < 0 ? `${-seconds} s in the future` : `${seconds} s ago`);

/**
 * What an auditor's witnesses say of a checkpoint note: a line per witness (its cosignature's
 * time, or why it has none that verifies), and the failure, if any: fewer than `quorum`
 * cosignatures verify, or (with `maxAge`, seconds) fewer than `quorum` were made within it.
 */
export function witnessReport(
  note: string,
  witnesses: readonly CosignatureVerifier[],
  quorum: number,
  maxAge: number | null,
  now: number,
): { lines: string[]; failure: string | null } {
  const times: number[] = [];
  const lines = witnesses.map((witness) => {
    const opened = openCosignature(note, witness);
    if ('error' in opened) return `cosignature: ${witness.name}: none (${opened.error})`;
    times.push(opened.time);
    return `cosignature: ${witness.name} at ${new Date(opened.time * 1000).toISOString()} (${ago(now - opened.time)})`;
  });
  if (times.length < quorum)
    return { lines, failure: `witnesses: the latest checkpoint carries ${times.length} of the ${quorum} cosignature(s) required by the witnesses given` };
  if (maxAge !== null) {
    const fresh = times.filter((time) => now - time <= maxAge).length;
    if (fresh < quorum)
      return {
        lines,
        failure:
          `freshness: only ${fresh} of the ${quorum} cosignature(s) required were made within ${maxAge} s: ` +
          'the log may be showing an old checkpoint, or its witnesses stopped cosigning',
      };
  }
  return { lines, failure: null };
}

/** The witnesses an auditor requires, from --witness, --quorum and --max-age; a usage error as text. */
export function witnessOptions(values: { witness?: string[]; quorum?: string; 'max-age'?: string }) {
  const keys = values.witness ?? [];
  let witnesses: CosignatureVerifier[];
  try {
    witnesses = keys.map((key) => parseCosignatureVerifierKey(key));
  } catch (error) {
    return `--witness: ${error instanceof Error ? error.message : String(error)}`;
  }
  const quorum = values.quorum === undefined ? witnesses.length : Number(values.quorum);
  if (values.quorum !== undefined && (witnesses.length === 0 || !Number.isInteger(quorum) || quorum < 1 || quorum > witnesses.length))
    return `--quorum must be from 1 to the number of --witness keys (${witnesses.length}), got "${values.quorum}"`;
  const maxAge = values['max-age'] === undefined ? null : parseDuration(values['max-age']);
  if (values['max-age'] !== undefined && (maxAge === null || witnesses.length === 0))
    return `--max-age needs --witness and a duration such as 90s, 10m, 2h or 1d, got "${values['max-age']}"`;
  return { witnesses, quorum, maxAge };
}
