import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteFile } from '../platform/sqliteFile.js';
import { type GroupReply, logGroupWriter } from './sqliteLogWriter.js';
import type { StreamAppend } from './sqliteEventTable.js';

/**
 * The writer thread of the SQLite log (started by ./sqliteLogWriter.ts): its own connection
 * commits each group it is sent and answers with the group's outcomes once the commit is
 * fsync'd; `'close'` closes the file and ends the thread.
 */
const port = parentPort!;
const db = openSqliteFile((workerData as { file: string }).file, 'FULL');
const write = logGroupWriter(db);
port.on('message', (message: { group: StreamAppend[]; recordedAt: string } | 'close') => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  const reply: GroupReply = write(message.group, message.recordedAt);
  port.postMessage(reply);
});
