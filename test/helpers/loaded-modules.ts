import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { type CliResult, runCli } from './workspace.js';
import { tempDir } from './temp-dir.js';

/** What one CLI run loaded and ran. */
export interface Loaded extends CliResult {
  /** The bundles of dist/cli it ran (`canvas.cjs`, `canvas-lazy.cjs`, ...). */
  bundles: string[];
  /**
   * Every bundled module whose code ran, by its path in the project (`src/store/write/apply-edit.ts`,
   * `node_modules/@dagrejs/dagre/...`): esbuild gives each module of a bundle an initialiser
   * named after that path, run the first time the module is used.
   */
  modules: Set<string>;
  /** Every file outside the bundles that was loaded from node_modules (jsdom, the MCP SDK, ...). */
  packages: string[];
  /** Node's own modules the process loaded (`node:crypto`, `node:internal/crypto/hash`, ...). */
  builtins: string[];
}

interface Coverage {
  result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }>;
}

/**
 * Run the built CLI with V8's coverage on (`NODE_V8_COVERAGE`) and report what the process loaded
 * and which bundled modules it initialised: the probe the tests use to check that a light command
 * runs no parser, renderer or heavy package. The compile cache is off for the run, so the probe
 * leaves no cached code behind.
 */
export async function loadedBy(ws: Workspace | null, args: string[], env: Record<string, string> = {}, input?: string): Promise<Loaded> {
  const dir = tempDir('canvas-coverage-');
  try {
    const result = await runCli(ws, args, { ...env, NODE_V8_COVERAGE: dir, CANVAS_DISABLE_COMPILE_CACHE: '1' }, input);
    const bundles: string[] = [];
    const modules = new Set<string>();
    const packages: string[] = [];
    const builtins: string[] = [];
    for (const f of readdirSync(dir)) {
      const coverage = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Coverage;
      for (const script of coverage.result) {
        const bundle = /\/dist\/cli\/([^/]+\.cjs)$/.exec(script.url);
        if (bundle) {
          bundles.push(bundle[1]!);
          for (const fn of script.functions) {
            if (/^(src|node_modules)\//.test(fn.functionName) && (fn.ranges[0]?.count ?? 0) > 0) modules.add(fn.functionName);
          }
        } else if (script.url.includes('/node_modules/')) {
          packages.push(script.url);
        } else if (script.url.startsWith('node:')) {
          builtins.push(script.url);
        }
      }
    }
    return { ...result, bundles, modules, packages, builtins };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The modules of a set that match a pattern. */
export function matching(modules: Iterable<string>, pattern: RegExp): string[] {
  return [...modules].filter((m) => pattern.test(m));
}
