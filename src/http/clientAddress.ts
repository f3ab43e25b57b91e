import { BlockList, isIPv6 } from 'node:net';
import { processMemo } from '../platform/processMemos.js';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const privateRanges = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv4');
}
privateRanges.addSubnet('fc00::', 7, 'ipv6');
privateRanges.addSubnet('fe80::', 10, 'ipv6');

type AddressClass = 'loopback' | 'private' | 'public' | 'unknown';

function classify(ip: string): AddressClass {
  const mapped = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const family = isIPv6(mapped) ? 'ipv6' : 'ipv4';
  try {
    if (loopback.check(mapped, family)) return 'loopback';
    if (privateRanges.check(mapped, family)) return 'private';
    return 'public';
  } catch {
    return 'unknown';
  }
}

/** Classes of recently seen addresses: a BlockList check costs ~0.1 ms, and writers come back. */
const RECENT_CLASSES = 4096;
const recentClasses = processMemo<AddressClass>(
  'addressClasses',
  'client addresses and their class (loopback, private, public), the latest 4,096',
  RECENT_CLASSES,
);

/** Events record where a write came from only as a class, never the address itself. */
export function classifyClientAddress(ip: string): AddressClass {
  let known = recentClasses.get(ip);
  if (known === undefined) {
    known = classify(ip);
    recentClasses.set(ip, known);
  }
  return known;
}

/**
 * Fastify's trustProxy for TRUST_PROXY: a number of hops becomes a function trusting that many
 * addresses from the right of [peer, ...X-Forwarded-For reversed], so the client is the address
 * the outermost trusted proxy saw; entries a client wrote to the left are never taken. (Fastify
 * itself treats a bare number as trusting nothing.)
 */
export function trustedProxies(setting: boolean | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}
