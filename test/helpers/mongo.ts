import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';

/** Why MongoDB-backed tests did not run, for their skip message. */
export const NO_MONGODB =
  'MONGODB_URL is not set: no MongoDB-wire server to test against (.ci/run starts FerretDB and sets it; e.g. MONGODB_URL=mongodb://127.0.0.1:27017/)';

/**
 * A fresh database on the server named by MONGODB_URL, dropped when the test ends; null
 * without MONGODB_URL. The returned URL names the database in its path.
 */
export function testMongoUrl(t: { teardown(fn: () => void | Promise<void>): void }, prefix = 'matchlog_test'): string | null {
  const base = process.env.MONGODB_URL;
  if (!base) return null;
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  const [hosts = '', query] = base.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]*)\/?[^?]*/, '$1\n').split('\n');
  const url = `${hosts}/${name}${query ?? ''}`;
  t.teardown(async () => {
    const client = new MongoClient(url);
    try {
      await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });
  return url;
}

/** Whether the server at `url` is FerretDB (it answers buildInfo with its own version). */
export async function servesFerretDb(url: string): Promise<boolean> {
  const client = new MongoClient(url);
  try {
    return typeof (await client.db('admin').command({ buildInfo: 1 })).ferretdbVersion === 'string';
  } finally {
    await client.close();
  }
}
