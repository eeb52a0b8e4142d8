// The runner's benchmarks, in the order `npm run bench` runs them (bench/run.ts), and every name
// `--only` takes (bench/lib/bench-args.ts).
import type { BenchContext, BenchResult } from '../lib/context.js';
import { cliEdit, inProcessEdit } from './edits.js';
import { excalidrawDraw } from './excalidraw.js';
import { hookBench } from './hook.js';
import { inboxBench } from './inbox.js';
import { libraryImport } from './library.js';
import { mcpHttpBench } from './mcp-http.js';
import { mcpTokens } from './mcp-tokens.js';
import { cliList } from './list.js';
import { notifyBench } from './notify.js';
import { cliRender, pageRender } from './projections.js';
import { cliRead, historyBench } from './reads.js';
import { remoteWrites } from './remote.js';
import { searchBench } from './search.js';
import { serveBench } from './serve.js';
import { siteBuild, siteScale, siteVsEleventy } from './site.js';
import { concurrentWriters } from './writers.js';
import type { WorkspaceSpec } from '../lib/generate-workspace.js';
import { editWorkspace, growthFamilies, growthWorkspaces, historyWorkspace, inboxWorkspace, listWorkspace, renderWorkspace, sessionWorkspace, siteWorkspaces } from '../lib/workspaces.js';

/** One benchmark: the name `--only` takes, what it runs, and the generated workspaces it reads (quick or full). */
interface Benchmark {
  key: string;
  run: (ctx: BenchContext) => Promise<BenchResult | BenchResult[]>;
  workspaces?: (quick: boolean) => WorkspaceSpec[];
}

const edits = (quick: boolean) => [editWorkspace(quick)];
const history = (quick: boolean) => [historyWorkspace(quick)];
const list = (quick: boolean) => [listWorkspace(quick)];

/** The benchmarks with a baseline, each under the name `--only` takes. */
export const BENCHMARKS: readonly Benchmark[] = [
  { key: 'cli-edit', run: cliEdit, workspaces: edits },
  { key: 'lib-edit', run: inProcessEdit, workspaces: edits },
  { key: 'lib-import', run: libraryImport },
  { key: 'cli-read', run: cliRead, workspaces: edits },
  { key: 'hook', run: hookBench, workspaces: edits },
  {
    key: 'page-render',
    run: pageRender,
    workspaces: (quick) =>
      growthFamilies(quick)
        .find((f) => f.axis === 'nodes per canvas')!
        .points.map((p) => p.spec),
  },
  { key: 'excalidraw', run: excalidrawDraw },
  { key: 'cli-render', run: cliRender, workspaces: (quick) => [renderWorkspace(quick).spec] },
  { key: 'site', run: siteBuild, workspaces: history },
  { key: 'site-vs-eleventy', run: siteVsEleventy, workspaces: history },
  { key: 'site-scale', run: siteScale, workspaces: siteWorkspaces },
  { key: 'history', run: historyBench, workspaces: history },
  { key: 'list', run: cliList, workspaces: list },
  { key: 'search', run: searchBench, workspaces: list },
  { key: 'inbox', run: inboxBench, workspaces: (quick) => [inboxWorkspace(quick)] },
  { key: 'mcp-tokens', run: mcpTokens, workspaces: () => [sessionWorkspace()] },
  { key: 'notify', run: notifyBench },
  { key: 'mcp-http', run: mcpHttpBench },
  { key: 'writers', run: concurrentWriters },
  { key: 'remote', run: remoteWrites },
  { key: 'serve', run: serveBench },
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
