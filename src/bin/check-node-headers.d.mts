/** What to tell the person installing about Node's headers, or null when they are where node-gyp looks (./check-node-headers.mjs). */
export function headersAdvice(env: Record<string, string | undefined>, execPath?: string, version?: string): string | null;
