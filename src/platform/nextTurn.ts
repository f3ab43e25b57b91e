/** Resolves once the event loop has polled for I/O: other requests are answered before the caller goes on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
