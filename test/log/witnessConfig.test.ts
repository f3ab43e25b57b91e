import t from 'tap';
import { newCosignerKey } from '../../src/domain/cosignature.js';
import { noteSignerFromSeed, verifierKeyString } from '../../src/domain/signedNote.js';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';

const one = newCosignerKey('one.example/witness').verifierKey;
const two = newCosignerKey('two.example/witness').verifierKey;
const witnesses = (items: unknown) => ({ LOG_WITNESSES: JSON.stringify(items) });

t.test('LOG_WITNESSES and LOG_WITNESS_QUORUM: none by default, all by default, one line for a bad value', async (t) => {
  t.same(loadConfig({}).logWitnesses, []);
  t.equal(loadConfig({}).logWitnessQuorum, 0);
  const config = loadConfig(
    witnesses([
      { url: 'https://one.example/witness/', key: one },
      { url: 'http://127.0.0.1:9000', key: two },
    ]),
  );
  t.same(
    config.logWitnesses,
    [
      { url: 'https://one.example/witness', key: one },
      { url: 'http://127.0.0.1:9000', key: two },
    ],
    'the prefix without its trailing slash',
  );
  t.equal(config.logWitnessQuorum, 2, 'the quorum is every witness unless set');
  t.equal(
    loadConfig({
      ...witnesses([
        { url: 'https://a.example', key: one },
        { url: 'https://b.example', key: two },
      ]),
      LOG_WITNESS_QUORUM: '1',
    }).logWitnessQuorum,
    1,
  );

  const noteKey = verifierKeyString(noteSignerFromSeed('log.example/log', Buffer.alloc(32, 3)));
  const bad: [Record<string, string>, RegExp][] = [
    [{ LOG_WITNESSES: '{"url":' }, /^invalid configuration: LOG_WITNESSES must be a JSON array .*; it is not JSON$/],
    [witnesses({ url: 'https://a.example', key: one }), /^invalid configuration: LOG_WITNESSES must be a JSON array of/],
    [witnesses([{ url: 'ftp://a.example', key: one }]), /item 0's url is not an http or https URL$/],
    [witnesses([{ url: 'https://a.example' }]), /item 0 has no key$/],
    [witnesses([{ url: 'https://a.example', key: one, name: 'x' }]), /item 0 has name too$/],
    [
      witnesses([{ url: 'https://a.example', key: noteKey }]),
      /item 0's key is not a witness vkey: the verifier key is not an Ed25519 cosignature\/v1 key \(type 0x04\)$/,
    ],
    [
      witnesses([
        { url: 'https://a.example', key: one },
        { url: 'https://b.example', key: one },
      ]),
      /names the witness one\.example\/witness twice$/,
    ],
    [
      { ...witnesses([{ url: 'https://a.example', key: one }]), LOG_WITNESS_QUORUM: '2' },
      /^invalid configuration: LOG_WITNESS_QUORUM must be an integer from 1 to 1/,
    ],
    [{ LOG_WITNESS_QUORUM: '1' }, /^invalid configuration: LOG_WITNESS_QUORUM is set but LOG_WITNESSES names no witness$/],
  ];
  for (const [env, message] of bad) {
    const error = t.throws(() => loadConfig(env));
    t.ok(error instanceof ConfigError && message.test(error.message) && !error.message.includes('\n'), `${JSON.stringify(env)}: ${String(error)}`);
  }
});
