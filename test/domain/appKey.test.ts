import t from 'tap';
import { formatAppKey, generateAppKey, hashAppKey, parseAppKey, sameAppKeyHash } from '../../src/domain/appKey.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

t.test('a generated key has the documented shape and parses back to its id', async (t) => {
  const issued = generateAppKey();
  t.match(issued.key, /^mlk_[0-9a-z]{10}_[0-9A-Za-z]{38}$/);
  t.same(parseAppKey(issued.key), { keyId: issued.keyId });
  t.equal(issued.prefix, issued.key.slice(0, 19), 'listed by mlk_, its id and four characters');
  t.ok(issued.key.startsWith(`mlk_${issued.keyId}_`));
  t.not(issued.hash, issued.key);
  t.notOk(issued.hash.includes(issued.key.slice(15)), 'the hash does not contain the secret');
  t.equal(issued.hash, hashAppKey(issued.key));
});

t.test('keys are unique', async (t) => {
  const keys = new Set(Array.from({ length: 500 }, () => generateAppKey().key));
  t.equal(keys.size, 500);
});

t.test('the checksum catches every single-character typo without a lookup', async (t) => {
  const { key } = generateAppKey();
  let caught = 0;
  let tried = 0;
  for (let i = 4; i < key.length; i += 1) {
    if (key[i] === '_') continue;
    for (const replacement of BASE62.slice(0, 20)) {
      if (replacement === key[i]) continue;
      tried += 1;
      if (parseAppKey(key.slice(0, i) + replacement + key.slice(i + 1)) === null) caught += 1;
    }
  }
  t.equal(caught, tried, `${tried} one-character changes, all rejected`);
  t.equal(parseAppKey(key.slice(0, -1)), null, 'truncated');
  t.equal(parseAppKey(`${key}x`), null, 'extended');
  const secretStart = key.lastIndexOf('_') + 1;
  const swapAt = [...key].findIndex((character, i) => i >= secretStart && i + 1 < key.length && character !== key[i + 1]);
  t.equal(parseAppKey(key.slice(0, swapAt) + key[swapAt + 1] + key[swapAt] + key.slice(swapAt + 2)), null, 'two different neighbours transposed');
  t.equal(parseAppKey(key.replace('mlk_', 'mlx_')), null, 'wrong prefix');
  t.equal(parseAppKey(''), null);
  t.equal(parseAppKey('not a key at all'), null);
});

t.test('a key made of valid parts with a recomputed checksum parses (it is the hash that authenticates)', async (t) => {
  const { keyId } = generateAppKey();
  const forged = formatAppKey(keyId, 'A'.repeat(32));
  t.same(parseAppKey(forged), { keyId });
});

t.test('hash comparison', async (t) => {
  const a = generateAppKey();
  const b = generateAppKey();
  t.ok(sameAppKeyHash(a.hash, hashAppKey(a.key)));
  t.notOk(sameAppKeyHash(a.hash, b.hash));
  t.notOk(sameAppKeyHash(a.hash, 'sha256:short'));
});
