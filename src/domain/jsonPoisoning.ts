/**
 * Keys that poison prototypes when a parsed value is later merged into another object: a
 * `__proto__` key, or a `constructor` object with a `prototype` key (the keys Fastify's secure
 * parser refuses). JSON.parse makes them plain own keys; the upload's shape check refuses them
 * (src/http/api/jsonShape.ts), and the incremental parse leaves such a text to it
 * (src/domain/jsonReparse.ts). The key found, or null.
 */
export function poisonedKey(object: Record<string, unknown>): string | null {
  if (Object.hasOwn(object, '__proto__')) return '__proto__';
  // biome-ignore lint/complexity/useLiteralKeys: the parsed JSON's own key, not Object.prototype's constructor.
  const ownConstructor = Object.hasOwn(object, 'constructor') ? object['constructor'] : null;
  if (typeof ownConstructor === 'object' && ownConstructor !== null && Object.hasOwn(ownConstructor, 'prototype')) return 'constructor.prototype';
  return null;
}
