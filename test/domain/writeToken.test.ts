import t from 'tap';
import { createWriteTokenHasher, isWellFormedWriteToken, sameWriteTokenHash } from '../../src/domain/writeToken.js';

t.test('bindable tokens: 8-1024 visible ASCII characters', async (t) => {
  for (const ok of [
    '12345678',
    '0123456789abcdef',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    'q3JkZg+/9w==abcdEFGH',
    'a'.repeat(1024),
    'comma,0123456789abc',
    '~!@#$%^&*()',
  ]) {
    t.ok(isWellFormedWriteToken(ok), ok.slice(0, 40));
  }
  for (const bad of [
    '',
    'short',
    '1234567',
    'a'.repeat(1025),
    'has space 0123456789',
    'ünïcödé-0123456789',
    'line\nbreak0123456789',
    'del\x7f0123456789',
    42,
  ]) {
    t.notOk(isWellFormedWriteToken(bad), JSON.stringify(bad).slice(0, 40));
  }
});

t.test('hashes are keyed, bound to the match, and never contain the token', async (t) => {
  const hashA = createWriteTokenHasher(Buffer.alloc(32, 1));
  const hashB = createWriteTokenHasher(Buffer.alloc(32, 2));
  const token = 'secret-token-0123456789';
  const h = hashA('m1', token);
  t.match(h, /^hmac-sha256:v1:[A-Za-z0-9_-]{43}$/);
  t.notOk(h.includes(token));
  t.equal(hashA('m1', token), h, 'deterministic');
  t.not(hashA('m2', token), h, 'salted by the match id');
  t.not(hashB('m1', token), h, 'keyed');
  t.throws(() => createWriteTokenHasher(Buffer.alloc(16)), /at least 32 bytes/);
});

t.test('comparison is exact', async (t) => {
  const hash = createWriteTokenHasher(Buffer.alloc(32, 1));
  t.ok(sameWriteTokenHash(hash('m', 'token-0123456789ab'), hash('m', 'token-0123456789ab')));
  t.notOk(sameWriteTokenHash(hash('m', 'token-0123456789ab'), hash('m', 'token-0123456789ac')));
  t.notOk(sameWriteTokenHash(hash('m', 'token-0123456789ab'), 'hmac-sha256:v1:short'), 'different lengths');
});
