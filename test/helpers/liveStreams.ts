import { request } from 'node:http';

export interface LiveAttempt {
  /** The status, or the socket error's code when there was no answer (a refused or reset connection). */
  status: number | string;
  headers: Record<string, string | string[] | undefined>;
  /** The answer's body when it was not a stream (a refusal). */
  body: string;
  /** Ends an open stream (a closing tab). */
  close(): void;
}

/**
 * Opens `GET path` on its own connection from `localAddress` (any 127.0.0.x on Linux), as an
 * event source asks (or with another `accept`, e.g. a browser's `text/html`): an accepted
 * stream is left open (its body is not read) until `close`; a refusal is read whole.
 */
export function openLiveStream(base: string, path: string, localAddress = '127.0.0.1', accept = 'text/event-stream'): Promise<LiveAttempt> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const req = request({ host: hostname, port: Number(port), path, localAddress, agent: false, headers: { accept } }, (res) => {
      const close = () => res.destroy();
      if (res.statusCode === 200) return resolve({ status: 200, headers: res.headers, body: '', close });
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, close }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, close }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? error.message, headers: {}, body: '', close: () => req.destroy() }));
    req.end();
  });
}
