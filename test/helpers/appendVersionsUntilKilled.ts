import { openSqliteEventStore } from '../../src/eventstore/sqliteEventStore.js';
import { liveVersion } from './liveVersions.js';

/**
 * A child process for the crash test: appends the versions of test/helpers/liveVersions.ts to one
 * stream of the file named by argv[2] (keyframe every argv[3] versions), writing each revision
 * to stdout once its append resolved (acknowledged), until it is killed.
 */
const [file = '', interval = '4'] = process.argv.slice(2);
const store = openSqliteEventStore(file, { deltas: { keyframeInterval: Number(interval), cacheBytes: 1024 * 1024 } });
const existing = await store.readStream('match-crash', { direction: 'backwards', maxCount: 1 });
for (let revision = (existing[0]?.revision ?? -1) + 1; ; revision += 1) {
  await store.appendToStream('match-crash', [liveVersion(revision)], revision === 0 ? 'no_stream' : revision - 1);
  process.stdout.write(`${revision}\n`);
}
