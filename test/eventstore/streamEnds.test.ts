import t from 'tap';
import { createStreamEnds } from '../../src/eventstore/streamEnds.js';

t.test('a stream is known to end only from the revision learnt, and only while the data version holds', async (t) => {
  let version = 1;
  const ends = createStreamEnds(() => version);
  t.notOk(ends.endsBefore('a', 0), 'nothing is known at first');
  ends.endsAt('a', 3);
  t.ok(ends.endsBefore('a', 3));
  t.ok(ends.endsBefore('a', 7), 'nothing after the end either');
  t.notOk(ends.endsBefore('a', 2), 'revision 2 may exist');
  t.notOk(ends.endsBefore('b', 3), 'another stream is not known');
  version = 2;
  t.notOk(ends.endsBefore('a', 3), 'another connection committed: everything known is forgotten');
  t.notOk(ends.endsBefore('a', 3), 'and stays forgotten until learnt again');
  ends.endsAt('a', 4);
  t.ok(ends.endsBefore('a', 4));
});

t.test('past maxStreams what is known is forgotten rather than grown', async (t) => {
  const ends = createStreamEnds(() => 1, 2);
  ends.endsAt('a', 1);
  ends.endsAt('b', 1);
  ends.endsAt('a', 2);
  t.ok(ends.endsBefore('a', 2), 'a known stream is updated in place');
  ends.endsAt('c', 1);
  t.notOk(ends.endsBefore('a', 2), 'a third stream made room by forgetting');
  t.ok(ends.endsBefore('c', 1));
});

t.test("the log's end is known from the position learnt, and only while the data version holds", async (t) => {
  let version = 1;
  const ends = createStreamEnds(() => version);
  t.notOk(ends.logEndsBefore(5), 'nothing is known at first');
  ends.logEndsAt(5);
  t.ok(ends.logEndsBefore(5), 'nothing after the position learnt');
  t.notOk(ends.logEndsBefore(4), 'a reader behind it has events to read');
  ends.endsAt('a', 3);
  version = 2;
  t.notOk(ends.logEndsBefore(5), 'another connection committed: the end is forgotten');
  t.notOk(ends.endsBefore('a', 3), "and so are the streams' ends");
  ends.logEndsAt(6);
  t.ok(ends.logEndsBefore(6), 'until learnt again');
});
