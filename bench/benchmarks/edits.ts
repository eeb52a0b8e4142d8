// CLI edit and in-process edit: `canvas replace` / `replaceNode` on a 200-node canvas in a
// workspace of 10,000 commits, against `git commit` of the same bytes.
import { join } from 'node:path';
import { replaceNode } from '../../src/store/write/node-writes.js';
import { type BenchContext, type BenchResult, baselineGitArgs, baselineGitEnv, cliCommand, cliEnv, pairs } from '../lib/context.js';
import { editText, gitCommitSame, setupEdits } from '../lib/edit-loop.js';
import { GEN_AUTHOR } from '../lib/generate-workspace.js';
import { gitCpuLog, timeCli } from '../lib/git-cpu.js';
import { interleave } from '../lib/measure.js';

const WHY = 'the measurement changed, so the paragraph says what holds now';

/**
 * `canvas replace`, whole process, against its floor (docs/performance.md, "The CLI's floor"): a
 * Node process that writes the same bytes into a plain clone and spawns `git commit -a` of them
 * (bench/edit-floor.mjs), each with the CPU of its git processes counted.
 */
export async function cliEdit(ctx: BenchContext): Promise<BenchResult> {
  const setup = await setupEdits(ctx, 'cli-edit');
  const [node, pre] = cliCommand(ctx);
  const gitLog = gitCpuLog(join(ctx.scratch, 'cli-edit-git'), process.env);
  const env = cliEnv(setup.ws, GEN_AUTHOR);
  const cmp = await interleave(
    ...pairs(ctx, 30, 5),
    (i) => {
      const id = setup.blocks[i % setup.blocks.length]!;
      const r = timeCli(node, [...pre, 'replace', setup.ledger, id, '--base', setup.revision, '--text', editText(i), '--why', WHY], { env }, gitLog);
      const m = /^Canvas-Base: ([0-9a-f]{40})$/m.exec(r.stdout);
      if (!m) throw new Error(`canvas replace printed no Canvas-Base:\n${r.stdout}${r.stderr}`);
      setup.revision = m[1]!;
      return r;
    },
    (i) => {
      const message = `replace ${setup.blocks[i % setup.blocks.length]}: ${editText(i)}`;
      return timeCli(
        process.execPath,
        [join(ctx.root, 'bench', 'edit-floor.mjs'), setup.baseline, `${setup.ledger}.xml`, join(setup.ws.repo, `${setup.ledger}.xml`), message, JSON.stringify(baselineGitArgs(setup.baseline))],
        { env: baselineGitEnv() },
        gitLog,
      );
    },
    false,
  );
  return {
    name: 'CLI edit',
    measured: `canvas replace, ${setup.nodes}-node canvas, ${setup.commits} commits`,
    baseline: 'its floor: node writing the same bytes and spawning git commit -a (bench/edit-floor.mjs)',
    target: 'CPU ratio <= 1.25',
    ...cmp,
    pass: cmp.cpu!.ratio.median <= 1.25,
    figure: 'ratio',
  };
}

/** The library's `replaceNode` in process vs `git commit` of the same change. */
export async function inProcessEdit(ctx: BenchContext): Promise<BenchResult> {
  const setup = await setupEdits(ctx, 'lib-edit');
  const cmp = await interleave(
    ...pairs(ctx, 40, 5),
    async (i) => {
      const id = setup.blocks[i % setup.blocks.length]!;
      const t0 = performance.now();
      const o = await replaceNode(setup.ws, { ledger: setup.ledger, node: id, base: setup.revision, payload: { text: editText(i) }, why: WHY, author: GEN_AUTHOR });
      const ms = performance.now() - t0;
      if (o.outcome !== 'applied') throw new Error(`replaceNode: ${JSON.stringify(o)}`);
      setup.revision = o.revision;
      return ms;
    },
    (i) => gitCommitSame(setup, i).ms,
    false,
  );
  return {
    name: 'in-process edit',
    measured: `replaceNode, ${setup.nodes}-node canvas, ${setup.commits} commits`,
    baseline: 'git commit',
    target: 'ratio <= 1.5',
    ...cmp,
    pass: cmp.ratio.median <= 1.5,
    figure: 'ratio',
  };
}
