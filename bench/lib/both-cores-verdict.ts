// The verdict of the "site build, both cores" row (docs/performance.md, "Both cores"). The target
// (the pool of one worker per core at least 1.7 times faster than one worker) is about the
// 1,000-canvas workspace, where a build lasts seconds; the quick run's 20 canvases build in well
// under a second, so there the pool's start-up (a second worker loading the renderers) is most of
// what the ratio measures, not two cores in use. A quick run prints the ratio against its
// baseline all the same, with no verdict; a full run judges it.

/** The speed-up a full run asks of the pool on two cores or more. */
const BOTH_CORES_TARGET = 1.7;

/**
 * The target and verdict of the both-cores row.
 *
 * @param quick true in a quick run (`--quick`): the target is named and judged at full size only
 * @param cpus the cores the build may use (`os.availableParallelism()`); under 2 there is nothing to judge
 * @param speedup the median of one worker's wall time over the pool's, in the same rounds
 * @returns the row's `target` (words) and `pass` (null: not judged in this run)
 */
export function bothCoresVerdict(quick: boolean, cpus: number, speedup: number): { target: string; pass: boolean | null } {
  const target = `speed-up >= ${BOTH_CORES_TARGET} on two cores`;
  if (quick) return { target: `${target}, judged at full size (1,000 canvases)`, pass: null };
  return { target, pass: cpus >= 2 ? speedup >= BOTH_CORES_TARGET : null };
}
