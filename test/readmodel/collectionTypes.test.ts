import t from 'tap';
import { PUBLIC_VIEW, type PublicViewDoc } from '../../projections/publicView.js';
import { defineProjection, type ProjectionView } from '../../projections/projection.js';
import { collectionOf, type ReadModelReader } from '../../src/readmodel/readModel.js';
import { openSqliteReadModel } from '../../src/readmodel/sqliteReadModel.js';

/** Compiled, never run: what the compiler accepts and refuses (npm run typecheck checks the expect-errors). */
async function typing(reader: ReadModelReader, view: ProjectionView) {
  const declared: PublicViewDoc | null = await reader.get(PUBLIC_VIEW, 'm1');
  // @ts-expect-error a plain string does not take a type argument: reads are typed by the collection's declaration
  await reader.get<PublicViewDoc>('publicView', 'm1');
  // @ts-expect-error nor does find
  await reader.find<PublicViewDoc>('publicView');
  // @ts-expect-error a declared collection is read as its own type only
  await reader.get<{ id: string; other: number }>(PUBLIC_VIEW, 'm1');
  // @ts-expect-error a document type has no index signature: a misspelt field does not compile
  void declared?.versionz;
  // @ts-expect-error a put into a declared collection is checked against its type
  view.put(PUBLIC_VIEW, { id: 'm1', revision: 'zero' });
  view.put('untyped', { id: 'x', anything: 1 });
  const untyped = await reader.get('untyped', 'x');
  return [declared, untyped];
}

/** A projection's handler is typed on the event types it declares. */
const declared = defineProjection({
  name: 'declared',
  collections: [],
  indexes: [],
  canHandle: ['MatchCreated', 'MatchErased'],
  async apply(event) {
    // @ts-expect-error MatchReplaced is not among the types this projection handles
    if (event.type === 'MatchReplaced') return;
  },
});

/** The event types a projection names are the log's, and those that change it are among those it handles. */
const misspelt = [
  defineProjection({
    name: 'misspelt',
    collections: [],
    indexes: [],
    // @ts-expect-error MatchCreatd is no event of the log: the projection would never see it
    canHandle: ['MatchCreatd'],
    async apply() {},
  }),
  defineProjection({
    name: 'changedByUnhandled',
    collections: [],
    indexes: [],
    canHandle: ['MatchCreated'],
    // @ts-expect-error MatchErased changes it but is not handled: a write would wait for an event it never applies
    changedBy: ['MatchCreated', 'MatchErased'],
    async apply() {},
  }),
];

t.test('a plain string reads untyped documents, a declared collection reads its own type', async (t) => {
  const store = openSqliteReadModel(':memory:');
  t.teardown(() => store.close());
  await store.commit('counter', [{ collection: 'counts', id: 's1', doc: { id: 's1', n: 5 }, position: 1 }], 1, null);
  t.same(await store.get('counts', 's1'), { id: 's1', n: 5 });
  t.same(await store.get(collectionOf<{ id: string; n: number }>('counts'), 's1'), { id: 's1', n: 5 });
  t.type(typing, 'function');
  t.same(declared.canHandle, ['MatchCreated', 'MatchErased']);
  t.same(
    misspelt.map((projection) => projection.name),
    ['misspelt', 'changedByUnhandled'],
    'event type names are checked when the project type-checks (the @ts-expect-error lines above)',
  );
});
