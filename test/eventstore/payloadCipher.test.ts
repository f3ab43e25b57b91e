import t from 'tap';
import { newStreamKey, open, seal, sealContext, SEAL_OVERHEAD, UnsealableDataError } from '../../src/eventstore/payloadCipher.js';

t.test('sealing is deterministic for the same event and plaintext, and differs for any other', async (t) => {
  const key = newStreamKey();
  const plain = Buffer.from('{"player":"Zoë"}');
  const context = sealContext('match-a', 'e1');
  const sealed = seal(key, context, plain);
  t.equal(sealed.length, plain.length + SEAL_OVERHEAD);
  t.same(seal(key, context, plain), sealed, 'a retry seals to the same bytes');
  t.notSame(seal(key, context, Buffer.from('{"player":"Zoe"}')).subarray(0, 12), sealed.subarray(0, 12), 'another plaintext, another nonce');
  t.notSame(seal(key, sealContext('match-a', 'e2'), plain), sealed, 'another event, other bytes');
  t.same(open(key, context, sealed), plain, 'opens with its key and context');
});

t.test('sealed data opens only with its key, its event, and every byte as sealed', async (t) => {
  const key = newStreamKey();
  const context = sealContext('match-a', 'e1');
  const sealed = seal(key, context, Buffer.from('payload'));
  t.throws(() => open(newStreamKey(), context, sealed), UnsealableDataError, 'another key');
  t.throws(() => open(key, sealContext('match-b', 'e1'), sealed), UnsealableDataError, 'moved to another stream');
  const edited = Buffer.from(sealed);
  edited[14] = edited[14]! ^ 1;
  t.throws(() => open(key, context, edited), UnsealableDataError, 'an edited byte');
  t.throws(() => open(key, context, sealed.subarray(0, 10)), UnsealableDataError, 'too short');
});
