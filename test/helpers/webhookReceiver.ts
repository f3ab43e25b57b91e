import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, and what it answered. */
interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  status: number;
  at: number;
  /** Whether `standardwebhooks` verified it with the receiver's secrets of the moment. */
  verified: boolean;
}

const header = (headers: IncomingHttpHeaders, name: string) => String(headers[name] ?? '');

/**
 * A club's endpoint on loopback: verifies each webhook with the `standardwebhooks` package
 * (any of `secrets`), and answers what `answer` says (200 by default).
 */
export async function startWebhookReceiver(t: { teardown(fn: () => Promise<void>): void }) {
  const received: Received[] = [];
  const state = { secrets: [] as string[], answer: (_request: { id: string; count: number }) => 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = header(req.headers, 'webhook-id');
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': header(req.headers, 'webhook-timestamp'),
        'webhook-signature': header(req.headers, 'webhook-signature'),
      };
      const verified = state.secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const status = state.answer({ id, count: received.filter((r) => r.id === id).length });
      received.push({ id, timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], body, status, at: Date.now(), verified });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    state,
    /** The ids answered 2xx, with how many times each was. */
    acknowledged(): Map<string, number> {
      const counts = new Map<string, number>();
      for (const r of received) if (r.status < 300) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
      return counts;
    },
  };
}

/** Polls `check` until it holds, with a generous deadline (never a fixed sleep). */
export async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
