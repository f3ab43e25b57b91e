import t from 'tap';
import { normalTeamName } from '../../src/domain/teamName.js';
import { classifyClientAddress } from '../../src/http/clientAddress.js';
import { clearProcessMemos, processMemo, processMemos } from '../../src/platform/processMemos.js';

t.test('the process memos are registered in one place, each saying what it holds', async (t) => {
  t.same(
    processMemos()
      .map((memo) => memo.name)
      .sort(),
    ['addressClasses', 'teamNames'],
  );
  for (const memo of processMemos()) t.ok(memo.holds.length > 20, `${memo.name}: ${memo.holds}`);
  t.throws(() => processMemo<string>('teamNames', 'a second memo of the same name', 1), /registered already/);
});

t.test('an erasure empties every process memo: what came with the erased payloads does not stay', async (t) => {
  t.equal(normalTeamName('Lakeside Herons U18 Girls'), 'lakeside herons');
  t.equal(classifyClientAddress('127.0.0.1'), 'loopback');
  t.ok(
    processMemos().every((memo) => memo.entries > 0),
    'each holds what it was asked',
  );
  clearProcessMemos();
  t.same(
    processMemos().map((memo) => memo.entries),
    [0, 0],
  );
  t.equal(normalTeamName('Lakeside Herons U18 Girls'), 'lakeside herons', 'and gives the same results after');
});
