import { addCheckpointBody, parseSignatureLines, parseTlogSize, TLOG_SIZE_TYPE } from '../domain/addCheckpoint.js';

export type AddCheckpointReply =
  | { kind: 'cosigned'; lines: string[] }
  | { kind: 'conflict'; size: number }
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'unreachable'; message: string };

const errorText = (error: unknown) =>
  error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error);

/**
 * One C2SP tlog-witness `POST <prefix>/add-checkpoint`, cut off after `timeoutMs` (or when `closing` aborts). It never
 * throws: a witness that is down, slow or wrong is a reply like any other.
 */
export async function postAddCheckpoint(
  prefix: string,
  request: { oldSize: number; consistencyProof: readonly Buffer[]; signedCheckpoint: string },
  timeoutMs: number,
  closing?: AbortSignal,
): Promise<AddCheckpointReply> {
  try {
    const response = await fetch(`${prefix}/add-checkpoint`, {
      method: 'POST',
      body: addCheckpointBody(request.oldSize, request.consistencyProof, request.signedCheckpoint),
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      signal: closing ? AbortSignal.any([AbortSignal.timeout(timeoutMs), closing]) : AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (response.status === 409 && (response.headers.get('content-type') ?? '').startsWith(TLOG_SIZE_TYPE)) {
      const size = parseTlogSize(text);
      if (size !== null) return { kind: 'conflict', size };
    }
    if (response.status !== 200) return { kind: 'refused', status: response.status, message: text.slice(0, 200) };
    const lines = parseSignatureLines(text);
    return lines === null
      ? { kind: 'refused', status: 200, message: `not signature lines: ${JSON.stringify(text.slice(0, 200))}` }
      : { kind: 'cosigned', lines };
  } catch (error) {
    return { kind: 'unreachable', message: errorText(error) };
  }
}
