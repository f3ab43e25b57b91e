/** Runs `task` on every item, at most `limit` at a time; answers in the items' order, and the first failure in that order. */
export async function mapInOrder<Item, Result>(items: readonly Item[], limit: number, task: (item: Item) => Promise<Result>): Promise<Result[]> {
  const settled: PromiseSettledResult<Result>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      settled[i] = await task(items[i]!).then(
        (value): PromiseSettledResult<Result> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<Result> => ({ status: 'rejected', reason }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return settled.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}
