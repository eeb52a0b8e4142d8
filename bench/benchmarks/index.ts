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

/** The benchmarks with a baseline, each under the name `--only` takes. */
export const BENCHMARKS: ReadonlyArray<{ key: string; run: (ctx: BenchContext) => Promise<BenchResult | BenchResult[]> }> = [
  { key: 'cli-edit', run: cliEdit },
  { key: 'lib-edit', run: inProcessEdit },
  { key: 'lib-import', run: libraryImport },
  { key: 'cli-read', run: cliRead },
  { key: 'hook', run: hookBench },
  { key: 'page-render', run: pageRender },
  { key: 'excalidraw', run: excalidrawDraw },
  { key: 'cli-render', run: cliRender },
  { key: 'site', run: siteBuild },
  { key: 'site-vs-eleventy', run: siteVsEleventy },
  { key: 'site-scale', run: siteScale },
  { key: 'history', run: historyBench },
  { key: 'list', run: cliList },
  { key: 'search', run: searchBench },
  { key: 'inbox', run: inboxBench },
  { key: 'mcp-tokens', run: mcpTokens },
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
