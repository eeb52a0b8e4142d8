// The runner's benchmarks, in the order `npm run bench` runs them (bench/run.ts), and every name
// `--only` takes (bench/lib/bench-args.ts).
import type { BenchContext, BenchResult } from '../lib/context.js';
import type { WorkspaceSpec } from '../lib/generate-workspace.js';
import { editWorkspace, growthFamilies, growthWorkspaces, historyWorkspace, inboxWorkspace, listWorkspace, renderWorkspace, sessionWorkspace, siteWorkspaces } from '../lib/workspaces.js';

type Run = (ctx: BenchContext) => Promise<BenchResult | BenchResult[]>;

/**
 * A benchmark's function, its module imported when it first runs: the runner only schedules, and
 * each lane (bench/lane.ts) loads the benchmarks it is given, not every one (loading them all
 * through tsx is seconds of CPU).
 */
function lazy<M>(load: () => Promise<M>, name: keyof M & string): Run {
  return async (ctx) => ((await load())[name] as Run)(ctx);
}

/** One benchmark: the name `--only` takes, what it runs, and the generated workspaces it reads (quick or full). */
interface Benchmark {
  key: string;
  run: Run;
  workspaces?: (quick: boolean) => WorkspaceSpec[];
  /**
   * In a quick run, run with the other lane idle (bench/lib/lanes.ts): its figure needs both
   * cores (the site builds' worker pool) or a free core beside it (the open page's latency).
   */
  alone?: boolean;
}

const edits = (quick: boolean) => [editWorkspace(quick)];
const history = (quick: boolean) => [historyWorkspace(quick)];
const list = (quick: boolean) => [listWorkspace(quick)];

/** The benchmarks with a baseline, each under the name `--only` takes. */
export const BENCHMARKS: readonly Benchmark[] = [
  { key: 'cli-edit', run: lazy(() => import('./edits.js'), 'cliEdit'), workspaces: edits },
  { key: 'lib-edit', run: lazy(() => import('./edits.js'), 'inProcessEdit'), workspaces: edits },
  { key: 'lib-import', run: lazy(() => import('./library.js'), 'libraryImport') },
  { key: 'cli-read', run: lazy(() => import('./reads.js'), 'cliRead'), workspaces: edits },
  { key: 'hook', run: lazy(() => import('./hook.js'), 'hookBench'), workspaces: edits },
  {
    key: 'page-render',
    run: lazy(() => import('./projections.js'), 'pageRender'),
    workspaces: (quick) =>
      growthFamilies(quick)
        .find((f) => f.axis === 'nodes per canvas')!
        .points.map((p) => p.spec),
  },
  { key: 'excalidraw', run: lazy(() => import('./excalidraw.js'), 'excalidrawDraw') },
  { key: 'cli-render', run: lazy(() => import('./projections.js'), 'cliRender'), workspaces: (quick) => [renderWorkspace(quick).spec] },
  { key: 'site', run: lazy(() => import('./site.js'), 'siteBuild'), workspaces: history, alone: true },
  { key: 'site-vs-eleventy', run: lazy(() => import('./site.js'), 'siteVsEleventy'), workspaces: history },
  { key: 'site-scale', run: lazy(() => import('./site.js'), 'siteScale'), workspaces: siteWorkspaces },
  { key: 'history', run: lazy(() => import('./reads.js'), 'historyBench'), workspaces: history },
  { key: 'list', run: lazy(() => import('./list.js'), 'cliList'), workspaces: list },
  { key: 'search', run: lazy(() => import('./search.js'), 'searchBench'), workspaces: list },
  { key: 'inbox', run: lazy(() => import('./inbox.js'), 'inboxBench'), workspaces: (quick) => [inboxWorkspace(quick)] },
  { key: 'mcp-tokens', run: lazy(() => import('./mcp-tokens.js'), 'mcpTokens'), workspaces: () => [sessionWorkspace()] },
  { key: 'notify', run: lazy(() => import('./notify.js'), 'notifyBench') },
  { key: 'mcp-http', run: lazy(() => import('./mcp-http.js'), 'mcpHttpBench') },
  { key: 'writers', run: lazy(() => import('./writers.js'), 'concurrentWriters') },
  { key: 'remote', run: lazy(() => import('./remote.js'), 'remoteWrites') },
  { key: 'serve', run: lazy(() => import('./serve.js'), 'serveBench'), alone: true },
];

/**
 * Every name `--only` takes: `verify` (the generated sample workspace verified in full, run
 * first), the benchmarks, and `growth` (the growth table, run last).
 */
export const BENCH_NAMES: readonly string[] = ['verify', ...BENCHMARKS.map((b) => b.key), 'growth'];

/**
 * The generated workspaces a run reads, each once, in the order the run first reads them: the
 * verified sample (`verify`, always the quick edit workspace), the benchmarks', the growth table's.
 *
 * @param only - the names `--only` gave, or null for every one
 */
export function runWorkspaces(quick: boolean, only: ReadonlySet<string> | null): WorkspaceSpec[] {
  const asked = (key: string) => only === null || only.has(key);
  const specs = [...(asked('verify') ? [editWorkspace(true)] : []), ...BENCHMARKS.filter((b) => asked(b.key)).flatMap((b) => b.workspaces?.(quick) ?? []), ...(asked('growth') ? growthWorkspaces(quick) : [])];
  const seen = new Set<string>();
  return specs.filter((s) => {
    const key = JSON.stringify(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
