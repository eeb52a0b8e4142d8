// The edit benchmarks' common part: a workspace copy, the blocks of its big canvas to replace in
// turn, and the baseline repository that commits the same bytes with `git commit`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCanvas } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { type BenchContext, baselineGitArgs, baselineGitEnv, baselineRepo, copyWorkspace } from './context.js';
import { generateWorkspace } from './generate-workspace.js';
import { type Sample, timeProcess } from './measure.js';
import { editWorkspace } from './workspaces.js';

/** A workspace ready for edits of its big canvas, and its baseline. */
export interface EditSetup {
  ws: Workspace;
  ledger: string;
  /** Non-section nodes to replace, in turn. */
  blocks: string[];
  /** The canvas's revision (updated by each edit). */
  revision: string;
  /** A plain clone with an index, for `git commit`. */
  baseline: string;
  nodes: number;
  commits: number;
}

/** Prepare a copy of the edit workspace and its baseline clone. */
export async function setupEdits(ctx: BenchContext, name: string): Promise<EditSetup> {
  const gen = await generateWorkspace(editWorkspace(ctx.quick), ctx.root, ctx.log);
  const ws = copyWorkspace(ctx, gen.ws, name);
  const read = await readCanvas(ws, { ledger: 'big' });
  const blocks: string[] = [];
  const walk = (nodes: typeof read.canvas.children) => {
    for (const n of nodes) {
      if (n.type === 'section') walk(n.children);
      else blocks.push(n.id);
    }
  };
  walk(read.canvas.children);
  return {
    ws,
    ledger: 'big',
    blocks,
    revision: read.revision,
    baseline: baselineRepo(ctx, ws, `${name}-git`),
    nodes: gen.nodes.big!.length,
    commits: editWorkspace(ctx.quick).commits,
  };
}

/** The text an edit writes: different every time, about the size of a real paragraph. */
export function editText(i: number): string {
  return `Measured again on run ${i}: the figure holds within its spread, so the decision stands and the next step can start.`;
}

/**
 * The baseline: write the canvas file's new bytes (as the store just wrote them) into the
 * plain clone and `git commit -a` them, one process.
 *
 * @returns wall milliseconds of the write and the commit, and the commit's CPU milliseconds
 */
export function gitCommitSame(setup: EditSetup, i: number): Sample {
  const bytes = readFileSync(join(setup.ws.repo, `${setup.ledger}.xml`));
  const t0 = performance.now();
  writeFileSync(join(setup.baseline, `${setup.ledger}.xml`), bytes);
  const git = timeProcess('git', [...baselineGitArgs(setup.baseline), 'commit', '-q', '-a', '-F', '-'], {
    cwd: setup.baseline,
    env: baselineGitEnv(),
    input: `replace ${setup.blocks[i % setup.blocks.length]}: ${editText(i)}\n`,
  });
  return { ms: performance.now() - t0, cpuMs: git.cpuMs };
}
