/** Host names that only this machine can reach. */
const LOCAL_HOSTS = /^(localhost|.*\.localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0|\[::\])$/i;
const LOOPBACK_LISTEN = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * Why the links matchlog hands out (share link, QR code, og:url and og:image, embed snippet,
 * API examples) would not work for anyone else, or null when they would: the server listens
 * beyond loopback (HOST) but PUBLIC_BASE_URL is unset or names this machine.
 */
export function publicAddressWarning(env: NodeJS.ProcessEnv, listenHost: string, publicBaseUrl: string): string | null {
  if (LOOPBACK_LISTEN.test(listenHost)) return null;
  const hostname = new URL(publicBaseUrl).hostname;
  if (env.PUBLIC_BASE_URL !== undefined && env.PUBLIC_BASE_URL !== '' && !LOCAL_HOSTS.test(hostname)) return null;
  const why = env.PUBLIC_BASE_URL ? `PUBLIC_BASE_URL is ${publicBaseUrl}, an address of this machine` : `PUBLIC_BASE_URL is not set, so it is ${publicBaseUrl}`;
  return (
    `listening on ${listenHost} but ${why}: share links, QR codes, link previews and embed snippets will point there. ` +
    'Set PUBLIC_BASE_URL to the address viewers use (e.g. https://scores.example.org)'
  );
}
