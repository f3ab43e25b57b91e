import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may not go unless the operator allows it (SSRF): loopback, private, shared,
 * link-local, unique-local, multicast, reserved and unspecified ranges, IPv4 and IPv6.
 */
const RANGES: { range: string; kind: string }[] = [
  { range: '0.0.0.0/8', kind: 'an unspecified' },
  { range: '10.0.0.0/8', kind: 'a private' },
  { range: '100.64.0.0/10', kind: 'a shared (carrier-grade NAT)' },
  { range: '127.0.0.0/8', kind: 'a loopback' },
  { range: '169.254.0.0/16', kind: 'a link-local' },
  { range: '172.16.0.0/12', kind: 'a private' },
  { range: '192.0.0.0/24', kind: 'a reserved' },
  { range: '192.168.0.0/16', kind: 'a private' },
  { range: '198.18.0.0/15', kind: 'a benchmarking' },
  { range: '224.0.0.0/4', kind: 'a multicast' },
  { range: '240.0.0.0/4', kind: 'a reserved' },
  { range: '::/128', kind: 'an unspecified' },
  { range: '::1/128', kind: 'a loopback' },
  { range: 'fc00::/7', kind: 'a unique-local' },
  { range: 'fe80::/10', kind: 'a link-local' },
  { range: 'ff00::/8', kind: 'a multicast' },
];

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** An address, a CIDR range (`10.0.0.0/8`, `::1/128`), or null when the text is neither. */
function parseRange(text: string): { address: string; prefix: number } | null {
  const [address = '', prefix, ...rest] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return null;
  const max = version === 4 ? 32 : 128;
  const bits = prefix === undefined ? max : Number(prefix);
  return Number.isInteger(bits) && bits >= 0 && bits <= max && (prefix === undefined || /^\d+$/.test(prefix)) ? { address, prefix: bits } : null;
}

/** The operator's exceptions (WEBHOOK_ALLOW_PRIVATE): addresses and ranges webhooks may reach although they are in RANGES. */
export interface AllowedAddresses {
  check(address: string): boolean;
}

/** The exceptions from their texts, or the first text that is not an address or range. */
export function allowedAddresses(texts: readonly string[]): AllowedAddresses | { invalid: string } {
  const list = new BlockList();
  for (const text of texts) {
    const range = parseRange(text);
    if (range === null) return { invalid: text };
    list.addSubnet(range.address, range.prefix, familyOf(range.address));
  }
  return { check: (address) => list.check(address, familyOf(address)) };
}

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it is. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

const denied = RANGES.map(({ range, kind }) => {
  const parsed = parseRange(range);
  if (parsed === null) throw new Error(`bad range ${range}`);
  const list = new BlockList();
  list.addSubnet(parsed.address, parsed.prefix, familyOf(parsed.address));
  return { list, kind };
});

/**
 * Why a webhook may not be sent to this resolved address, or null when it may: the one rule the
 * dashboard (a literal address in a URL) and the sender (each address a name resolves to, at
 * connect time) both apply.
 */
export function addressRefusal(rawAddress: string, allowed: AllowedAddresses): string | null {
  const address = unmapped(rawAddress);
  if (isIP(address) === 0) return `${rawAddress} is not an IP address`;
  if (allowed.check(address)) return null;
  const hit = denied.find(({ list }) => list.check(address, familyOf(address)));
  return hit === undefined
    ? null
    : `${address} is ${hit.kind} address: webhooks go only to public addresses unless the operator allows this one (WEBHOOK_ALLOW_PRIVATE)`;
}

/** Longest endpoint URL kept. */
const WEBHOOK_URL_MAX = 2000;

/** What is wrong with an endpoint URL a club admin gives, or null: http(s), no credentials, and not a literal address the operator forbids. */
export function webhookUrlProblem(text: string, allowed: AllowedAddresses): string | null {
  if (text.length > WEBHOOK_URL_MAX) return `the URL is longer than ${WEBHOOK_URL_MAX} characters`;
  if (!URL.canParse(text)) return 'give the full URL of your endpoint, starting with https://';
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `the URL must start with https:// (or http://), not ${url.protocol}//`;
  if (url.username !== '' || url.password !== '') return 'leave the user name and password out of the URL: every request is signed instead';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? null : addressRefusal(host, allowed);
}
