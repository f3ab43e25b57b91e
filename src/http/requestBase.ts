/**
 * The base URL a request was addressed to, from its Host header, for links and QR codes when
 * PUBLIC_BASE_URL is unset (docs/decisions.md, *Viewers*): only a host name or an IP address
 * with an optional port is taken (no user info, path, spaces or markup), lower-cased; else null.
 */
const NAME = /^(?=.{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/;
const IPV6 = /^\[[0-9a-f:.]{2,45}\](?::\d{1,5})?$/;

export function hostBase(host: string | undefined, protocol: string): string | null {
  if (host === undefined) return null;
  const lower = host.trim().toLowerCase();
  if (!NAME.test(lower) && !IPV6.test(lower)) return null;
  const port = /:(\d+)$/.exec(lower)?.[1];
  if (port !== undefined && Number(port) > 65535) return null;
  return `${protocol === 'https' ? 'https' : 'http'}://${lower}`;
}
