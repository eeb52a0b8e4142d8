/**
 * Run an asynchronous step for every item, at most `limit` at a time, each taking the next item
 * as one finishes: so the git reads of many canvases are pipelined through one batch process
 * instead of waiting on one another.
 *
 * @param items - the items, in order
 * @param limit - how many steps run at once (at least 1)
 * @param step - the step, given the item and its index; its result is ignored
 * @returns when every step has finished; rejects with the first step that rejects
 */
export async function eachInFlight<T>(items: readonly T[], limit: number, step: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const work = async () => {
    while (next < items.length) {
      const i = next++;
      await step(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, work));
}
