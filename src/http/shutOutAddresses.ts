/**
 * Client addresses that keep asking for what they are refused, shut out for a while: their new
 * connections are closed as soon as they are accepted (./connections.ts). A refused live stream
 * answered with its 429 costs the server ~200 µs of CPU (the accept, the parse, the answer's
 * write and the close, most of it Node's and the kernel's), a connection closed at accept ~35 µs:
 * a client opening streams by the thousand from one address held the event loop ~100 ms a
 * thousand, and every other client's requests waited behind it (`npm run bench:hostile`).
 *
 * A viewer's page asks again only after 30 s and longer each time, so a gym behind one address
 * is never shut out unless hundreds of its phones are refused within one window; one shut out
 * keeps its open connections and streams, and is let in again when the window ends.
 */
export interface ShutOutAddresses {
  /** Counts one refusal of `address`: past `limit` within a window, it is shut out for a window from then. */
  refused(address: string): void;
  /** Whether `address` is shut out now. */
  isShut(address: string): boolean;
}

/** How long a window of counted refusals lasts, and a shut-out after it. */
const SHUT_OUT_MS = 10_000;

/** Addresses counted at once: past them, new ones are not counted (refused one by one, as without this). */
const ADDRESSES_MAX = 10_000;

interface Counted {
  /** When this window of refusals began. */
  since: number;
  refusals: number;
  /** Shut out until then (0: never was). */
  until: number;
}

export function createShutOutAddresses({
  limit,
  windowMs = SHUT_OUT_MS,
  now = Date.now,
}: {
  limit: number;
  windowMs?: number;
  now?: () => number;
}): ShutOutAddresses {
  const counted = new Map<string, Counted>();

  /** Forgets the addresses whose window and shut-out are both over. */
  function prune(at: number) {
    for (const [address, entry] of counted) if (at - entry.since >= windowMs && at >= entry.until) counted.delete(address);
  }

  return {
    refused(address) {
      const at = now();
      let entry = counted.get(address);
      if (entry === undefined) {
        if (counted.size >= ADDRESSES_MAX) prune(at);
        if (counted.size >= ADDRESSES_MAX) return;
        entry = { since: at, refusals: 0, until: 0 };
        counted.set(address, entry);
      } else if (at - entry.since >= windowMs) {
        entry.since = at;
        entry.refusals = 0;
      }
      entry.refusals += 1;
      if (entry.refusals > limit) entry.until = at + windowMs;
    },
    isShut(address) {
      const entry = counted.get(address);
      return entry !== undefined && entry.until > now();
    },
  };
}
