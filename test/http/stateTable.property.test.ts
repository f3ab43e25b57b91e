import fc from 'fast-check';
import t from 'tap';
import { isWellFormedWriteToken } from '../../src/domain/writeToken.js';
import { json, startTestApp } from '../helpers/testApp.js';
import { numRuns } from '../helpers/properties.js';

/**
 * Property tests of the spec's state table (section 3) over the real HTTP app: random
 * sequences of POST and PUT with random ids and tokens (good, wrong, malformed, missing),
 * checked against a model of the table, sequentially and as concurrent interleavings.
 */
type Via = 'POST' | 'PUT';
interface Op {
  via: Via;
  id: number;
  token: string | null;
}
interface Stored {
  protected: boolean;
  token: string | null;
  /** The JSON text of the stored payload. */
  payload: string;
}
type Model = Map<number, Stored>;

const TOKENS = [
  null,
  'good-token-A-0123456789abcdef',
  'good-token-B-0123456789abcdef',
  '12345678',
  'short',
  'has spaces in it',
  '',
  'x'.repeat(1500),
  'ünicode-token-0123',
];
const ID_COUNT = 3;
const opArb = fc.record({ via: fc.constantFrom<Via>('POST', 'PUT'), id: fc.nat(ID_COUNT - 1), token: fc.constantFrom(...TOKENS) });

/** What an op sends: POST names the match in its body, PUT in its path. */
const bodyOf = (op: Op, id: string, n: number) => JSON.stringify(op.via === 'POST' ? { id, n } : { n });

/** The state table: the status an op gets and the model after it. */
function step(model: Model, op: Op, payload: string): number {
  const ok = op.via === 'POST' ? 201 : 200;
  const stored = model.get(op.id);
  if (stored === undefined) {
    if (op.via === 'POST' && op.token !== null) {
      if (!isWellFormedWriteToken(op.token)) return 400;
      model.set(op.id, { protected: true, token: op.token, payload });
      return ok;
    }
    model.set(op.id, { protected: false, token: null, payload });
    return ok;
  }
  if (stored.protected && op.token !== stored.token) return 403;
  model.set(op.id, { ...stored, payload });
  return ok;
}

const matchId = (run: number, id: number) => (id === 2 ? `r${run}-${'l'.repeat(120)}` : `r${run}-m${id}`);

t.test('sequential: every status, protection and stored payload follows the state table', async (t) => {
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: 'off', WRITE_RATE_LIMIT: 'off' });
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
      run += 1;
      const model: Model = new Map();
      for (const [n, op] of ops.entries()) {
        const id = matchId(run, op.id);
        const res = await app.inject({
          method: op.via,
          url: op.via === 'POST' ? '/api/matches' : `/api/matches/${id}`,
          headers: { ...json, ...(op.token === null ? {} : { 'x-write-token': op.token }) },
          payload: bodyOf(op, id, n),
        });
        if (res.statusCode !== step(model, op, bodyOf(op, id, n))) return false;
      }
      for (let id = 0; id < ID_COUNT; id += 1) {
        const res = await app.inject({ method: 'GET', url: `/api/matches/${matchId(run, id)}` });
        const want = model.get(id);
        if (want === undefined) {
          if (res.statusCode !== 404) return false;
          continue;
        }
        const view = res.json() as { protected: boolean; payload: unknown };
        if (view.protected !== want.protected || JSON.stringify(view.payload) !== want.payload) return false;
      }
      return true;
    }),
    { numRuns: numRuns(150) },
  );
  t.comment(`sequential property: ${run} runs`);
  t.ok(run >= numRuns(150), `${run} runs`);
});

/** Every order of `ops`: small batches only (5! = 120). */
function permutations<T>(items: T[]): T[][] {
  const out: T[][] = [];
  const walk = (rest: T[], acc: T[]) => {
    if (rest.length === 0) out.push(acc);
    for (const [i, item] of rest.entries()) walk([...rest.slice(0, i), ...rest.slice(i + 1)], [...acc, item]);
  };
  walk(items, []);
  return out;
}

t.test('concurrent: each batch on a real server matches some sequential order of the table', async (t) => {
  const { app } = await startTestApp(t, { TOKEN_FAILURE_LIMIT: 'off', WRITE_RATE_LIMIT: 'off' });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ via: fc.constantFrom<Via>('POST', 'PUT'), token: fc.constantFrom(...TOKENS) }), { minLength: 2, maxLength: 5 }),
      async (batch) => {
        run += 1;
        const id = matchId(run, run % 2 === 0 ? 2 : 0);
        const ops = batch.map((op, n) => ({ ...op, id: 0, n }));
        const statuses = await Promise.all(
          ops.map((op) =>
            fetch(op.via === 'POST' ? `${base}/api/matches` : `${base}/api/matches/${id}`, {
              method: op.via,
              headers: { ...json, ...(op.token === null ? {} : { 'x-write-token': op.token }) },
              body: bodyOf(op, id, op.n),
            }).then((res) => res.status),
          ),
        );
        const res = await fetch(`${base}/api/matches/${id}`);
        const view = res.status === 404 ? null : ((await res.json()) as { protected: boolean; payload: unknown });
        // Linearizable: some order of the batch gives every status seen and the final state.
        return permutations(ops).some((order) => {
          const model: Model = new Map();
          for (const op of order) if (step(model, op, bodyOf(op, id, op.n)) !== statuses[op.n]) return false;
          const want = model.get(0);
          if (want === undefined) return view === null;
          return view !== null && view.protected === want.protected && JSON.stringify(view.payload) === want.payload;
        });
      },
    ),
    { numRuns: numRuns(100) },
  );
  t.comment(`concurrent property: ${run} runs`);
  t.ok(run >= numRuns(100), `${run} runs`);
});
