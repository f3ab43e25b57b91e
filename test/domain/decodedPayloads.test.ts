import t from 'tap';
import { createDecodedPayloads } from '../../src/domain/decodedPayloads.js';
import { asJsonText } from '../../src/domain/jsonText.js';

const text = (n: number) => asJsonText(JSON.stringify({ homeTeam: { name: `Home ${n}` }, awayTeam: { name: 'Away' } }));

t.test('a payload is parsed once: later asks for the same event get the same object', async (t) => {
  const payloads = createDecodedPayloads();
  const first = payloads.decoded('e1', text(1));
  t.equal(payloads.decoded('e1', text(1)), first);
  t.equal(payloads.parsed('e1'), first);
  t.equal(payloads.parsed('e2'), undefined, 'never decoded, never handed over');
});

t.test('what the writer parsed is handed to the projections of the same cache, and only of that one', async (t) => {
  const engine = createDecodedPayloads();
  const other = createDecodedPayloads();
  const body = JSON.parse(text(2)) as unknown;
  engine.remember('e2', body);
  t.equal(engine.decoded('e2', text(2)).body, body, 'not parsed again');
  t.equal(other.parsed('e2'), undefined, 'each engine has its own: nothing is shared through a module');
});

t.test('the cache keeps the latest 16 payloads, and forgets the ones applied', async (t) => {
  const payloads = createDecodedPayloads();
  for (let n = 0; n < 17; n++) payloads.decoded(`e${n}`, text(n));
  t.equal(payloads.parsed('e0'), undefined, 'the oldest went');
  t.not(payloads.parsed('e1'), undefined);
  payloads.forget(['e1', 'e16']);
  t.equal(payloads.parsed('e1'), undefined);
  t.equal(payloads.parsed('e16'), undefined);
});
