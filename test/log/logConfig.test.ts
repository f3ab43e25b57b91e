import t from 'tap';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';
import { noteSignerFromSeed, signerKeyString } from '../../src/domain/signedNote.js';

t.test('LOG_ORIGIN and LOG_SIGNING_KEY: defaults, and one clear line for a bad value', async (t) => {
  t.equal(loadConfig({ PUBLIC_BASE_URL: 'https://scores.example.org:8443/base' }).logOrigin, 'scores.example.org:8443/log');
  t.equal(loadConfig({ LOG_ORIGIN: 'league.example/log' }).logOrigin, 'league.example/log');
  t.throws(
    () => loadConfig({ LOG_ORIGIN: 'two words' }),
    new ConfigError('LOG_ORIGIN', 'must be one line without spaces or "+" (it names the signing key too), got "two words"'),
  );
  t.throws(() => loadConfig({ LOG_SIGNING_KEY: 'PRIVATE+KEY+x+00000000+AAAA' }), /invalid configuration: LOG_SIGNING_KEY must be a note signer key/);
  const seed = Buffer.alloc(32, 5);
  const key = signerKeyString(noteSignerFromSeed('a.example/log', seed), seed);
  t.equal(loadConfig({ LOG_SIGNING_KEY: key }).logSigningKey, key);
});
