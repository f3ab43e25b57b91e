import { createHash } from 'node:crypto';
import type { LogEntry } from '../domain/logEntry.js';
import { AuditFailure } from './logClient.js';

/** A version's payload as served and checked against its entry: its exact text, or erased (410). */
export type CheckedPayload = { erased: false; text: string } | { erased: true };

/**
 * Fetches the payload of the version `entry` names with its salt and checks SHA-256(salt ‖ bytes)
 * against the entry's payloadSha256; `where` names the entry in a failure. 410 is an erasure.
 */
export async function checkedPayload(base: string, entry: LogEntry & { matchId: string; payloadSha256: string }, where: string): Promise<CheckedPayload> {
  const path = `/api/matches/${encodeURIComponent(entry.matchId)}/payload?revision=${entry.revision}`;
  const response = await fetch(`${base}${path}`).catch((error: unknown) => {
    throw new AuditFailure(`cannot reach ${base}${path}: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (response.status === 410) return { erased: true };
  if (!response.ok) throw new AuditFailure(`digest: ${where}: its payload is not served (${response.status}): the log lost a version its tree holds`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const salt = Buffer.from(response.headers.get('matchlog-payload-salt') ?? '', 'base64');
  const digest = createHash('sha256').update(salt).update(bytes).digest('hex');
  if (digest !== entry.payloadSha256)
    throw new AuditFailure(
      `digest: ${where}: SHA-256(salt ‖ payload) is ${digest}, the log entry says ${entry.payloadSha256}: the version's bytes were changed`,
    );
  return { erased: false, text: bytes.toString('utf8') };
}
