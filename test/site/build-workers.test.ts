// The site build on every core (docs/site.md, "Every core"): the same bytes whatever the number
// of workers, and one bad canvas reported while the others are built.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateWorkspace } from '../../bench/lib/generate-workspace.js';
import { buildSite } from '../../src/site/build-site.js';
import { resolveWorkspace } from '../../src/store/repo/workspace.js';
import { ROOT, runCli } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * Every file under `dir`, its bytes in base64: two trees are the same bytes when these are equal,
 * and comparing strings is native (toEqual walks a Buffer byte by byte, 7 s of CPU for these sites).
 */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

describe('canvas build --workers', () => {
  it('writes the same bytes with 1 and with 4 workers, in the bundle and from the sources, and reports a bad canvas alone', async () => {
    // 33 small canvases with their histories, made the way the benchmarks make them: enough for four
    // workers with several batches each.
    const gen = await generateWorkspace({ canvases: 33, commits: 260, minNodes: 3, maxNodes: 6, bigNodes: 0, seed: 18 }, ROOT, undefined, tempDir('canvas-gen-cache-'));
    const root = join(tempDir('canvas-workers-'), 'ws');
    cpSync(gen.ws.root, root, { recursive: true });
    const ws = resolveWorkspace({ workspace: root });
    // A canvas ref pointing at a commit written outside the tool, holding XML the schema refuses.
    const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: ws.repo, input, encoding: 'utf8' }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], '<canvas ledger="c17x" schema="2"><div>no</div></canvas>\n');
    const commit = git(['-c', 'user.name=x', '-c', 'user.email=x@y', 'commit-tree', git(['mktree'], `100644 blob ${blob}\tc17x.xml\n`), '-m', 'outside']);
    git(['update-ref', 'refs/canvas/c17x', commit]);

    const scratch = tempDir('canvas-workers-out-');
    const sites: Record<string, Record<string, string>> = {};
    for (const workers of ['1', '4']) {
      const dir = join(scratch, `w${workers}`);
      const r = await runCli(ws, ['build', '--out', dir, '--json', '--workers', workers]);
      expect(r.code, r.stderr).toBe(8);
      const report = JSON.parse(r.stdout);
      expect(report.failed).toEqual([expect.objectContaining({ ledger: 'c17x', code: 'SCHEMA' })]);
      expect(report.built).toHaveLength(33);
      sites[workers] = tree(dir);
    }
    // From the TypeScript sources, the workers load the sources through tsx.
    const fromSources = join(scratch, 'sources');
    const report = await buildSite(ws, { out: fromSources, workers: 2 });
    expect(report.failed.map((f) => f.ledger)).toEqual(['c17x']);
    expect(Object.keys(sites['1']!)).toHaveLength(33 * 3 + 2);
    expect(sites['4']).toEqual(sites['1']);
    // The sources' renderer version is not the bundle's; every page is the same.
    const { '.canvas-build.json': _m, ...pages } = tree(fromSources);
    const { '.canvas-build.json': _n, ...bundled } = sites['1']!;
    expect(pages).toEqual(bundled);
  });

  it('refuses a --workers that is not a positive integer (USAGE), writing nothing', async () => {
    const dir = join(tempDir('canvas-workers-out-'), 'site');
    for (const bad of ['0', '-1', 'two', '1.5']) {
      const r = await runCli(null, ['build', '--out', dir, '--json', `--workers=${bad}`]);
      expect(r.code, bad).toBe(2);
      expect(JSON.parse(r.stdout).error.code, bad).toBe('USAGE');
      expect(() => statSync(dir)).toThrow();
    }
  });
});
