import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteFile } from '../platform/sqliteFile.js';
import { createGroupCommit } from './groupCommit.js';
import { type Submitted, logGroupWriter, type WriterData, type WriterMessage } from './sqliteLogWriter.js';

/**
 * The writer thread of the SQLite log (started by ./sqliteLogWriter.ts): its own connection
 * commits the appends it is sent, grouped, and answers each group on `answers` once its commit
 * is fsync'd.
 * Appends sent while a group commits wait in the port and make the next group. `'close'`
 * commits what is queued, closes the file and ends the thread.
 */
const { file, maxGroupSize, answers } = workerData as WriterData;
const port = parentPort!;
const db = openSqliteFile(file, 'FULL');
const write = logGroupWriter(db);
const appends = createGroupCommit<Submitted>({ maxGroupSize, commit: (group) => answers.postMessage(write(group)) });
port.on('message', (message: WriterMessage) => {
  if (message !== 'close') return appends.add(message);
  appends.commitQueued();
  db.close();
  answers.close();
  port.close();
});
