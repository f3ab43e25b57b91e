const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The message of one pretty line: an access line reads `GET /match/x 404 13 ms` (its message
 * only when it is not the usual "request completed"); any other line its message.
 */
export function prettyMessage(log: Record<string, unknown>, messageKey: string): string {
  const message = typeof log[messageKey] === 'string' ? log[messageKey] : '';
  // What an access line carries (Fastify's request and reply serializers), as far as the pretty line reads it.
  const { req, res, responseTime } = log;
  if (!isRecord(req) || !isRecord(res)) return message;
  const ms = typeof responseTime === 'number' ? ` ${Math.round(responseTime)} ms` : '';
  const line = `${String(req.method)} ${String(req.url)} ${String(res.statusCode)}${ms}`;
  return message === 'request completed' ? line : `${line}: ${message}`;
}

/**
 * LOG_FORMAT=pretty: one line per log record for a terminal (time, level, message, then the
 * remaining fields on the same line), on stdout; null for JSON lines, the default. pino-pretty is
 * loaded only then.
 */
export async function prettyLogStream(format: 'json' | 'pretty'): Promise<{ write(line: string): void } | null> {
  if (format !== 'pretty') return null;
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    destination: 1,
    colorize: process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime',
    singleLine: true,
    messageFormat: prettyMessage,
  });
}
