/**
 * LOG_FORMAT=pretty: log lines as pino-pretty writes them for a terminal (time, level, message,
 * then the fields), on stdout; null for JSON lines, the default. pino-pretty is loaded only then.
 */
export async function prettyLogStream(format: 'json' | 'pretty'): Promise<{ write(line: string): void } | null> {
  if (format !== 'pretty') return null;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ destination: 1, colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
