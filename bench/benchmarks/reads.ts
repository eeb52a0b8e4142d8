// CLI read and node history: whole processes against the git command that fetches the same kind
// of thing.
import { join } from 'node:path';
import { type BenchContext, type BenchResult, baselineGitArgs, baselineGitEnv, cliCommand, cliEnv, pairs } from '../lib/context.js';
import { GEN_AUTHOR, generateWorkspace } from '../lib/generate-workspace.js';
import { gitCpuLog, timeCli } from '../lib/git-cpu.js';
import { gitConfigArgs } from '../../src/store/git/git.js';
import { interleave, plus, type Sample, stats, timeProcess } from '../lib/measure.js';
import { editWorkspace, historyWorkspace } from '../lib/workspaces.js';

/**
 * `canvas read` against its floor (docs/performance.md, "The CLI's floor"): a Node process that
 * spawns `git cat-file --batch`, asks for the canvas's ref and its document at that commit and
 * prints them (bench/read-floor.mjs), each with the CPU of its batch counted. Beside it, the
 * baseline before that floor, `node -e 0` plus `git cat-file -p HEAD:<file>`, as a figure.
 */
export async function cliRead(ctx: BenchContext): Promise<BenchResult> {
  const spec = editWorkspace(ctx.quick);
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const [node, pre] = cliCommand(ctx);
  const gitLog = gitCpuLog(join(ctx.scratch, 'cli-read-git'), process.env);
  const env = cliEnv(gen.ws, GEN_AUTHOR);
  const expected = gen.revisions.big!;
  const floorArgs = [join(ctx.root, 'bench', 'read-floor.mjs'), gen.ws.repo, 'big', JSON.stringify(gitConfigArgs(gen.ws.repo))];
  const before: Sample[] = [];
  const cmp = await interleave(
    ...pairs(ctx, 40, 5),
    () => {
      const r = timeCli(node, [...pre, 'read', 'big'], { env }, gitLog);
      if (!r.stdout.startsWith(`Canvas-Base: ${expected}\n`)) throw new Error(`canvas read printed:\n${r.stdout.slice(0, 200)}`);
      return r;
    },
    () => {
      const r = timeCli(process.execPath, floorArgs, { env: baselineGitEnv() }, gitLog);
      if (!r.stdout.startsWith(`Canvas-Base: ${expected}\n`)) throw new Error(`the read floor printed:\n${r.stdout.slice(0, 200)}`);
      before.push(plus(timeProcess(process.execPath, ['-e', '0']), timeProcess('git', [...baselineGitArgs(gen.ws.repo), 'cat-file', '-p', 'HEAD:big.xml'], { cwd: gen.ws.repo, env: baselineGitEnv() })));
      return r;
    },
  );
  const old = stats(before.map((b) => b.cpuMs));
  return {
    name: 'CLI read',
    measured: `canvas read, ${gen.nodes.big!.length}-node canvas, ${spec.commits} commits`,
    baseline: 'its floor: node spawning git cat-file --batch for the ref and the document, printing them (bench/read-floor.mjs)',
    target: 'CPU ratio <= 1.15',
    ...cmp,
    pass: cmp.cpu!.ratio.median <= 1.15,
    figure: `against node -e 0 + git cat-file -p: ${(cmp.cpu!.a.median / old.median).toFixed(2)} on CPU (${old.median.toFixed(1)} ms)`,
    detail: { nodeAndCatFile: { cpu: old, ratio: cmp.cpu!.a.median / old.median } },
  };
}

/** `canvas history` in a workspace of 100,000 commits over 1,000 canvases (absolute <= 0.5 s). */
export async function historyBench(ctx: BenchContext): Promise<BenchResult> {
  const spec = historyWorkspace(ctx.quick);
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const [node, pre] = cliCommand(ctx);
  const env = cliEnv(gen.ws, GEN_AUTHOR);
  // The canvas with the longest chain, and its first node (inserted early, so edited most).
  const ledger = gen.ledgers.reduce((best, l) => (gen.commitsOf[l]! > gen.commitsOf[best]! ? l : best));
  const id = gen.nodes[ledger]![0]!;
  const cmp = await interleave(
    ...pairs(ctx, 30, 3),
    () => {
      const r = timeProcess(node, [...pre, 'history', ledger, id], { env });
      if (!r.stdout.startsWith(`Canvas-Node: ${id}\n`)) throw new Error(`canvas history printed:\n${r.stdout.slice(0, 200)}`);
      return r;
    },
    () => timeProcess('git', [...baselineGitArgs(gen.ws.repo), 'log', '--format=%H', '-n', '1'], { cwd: gen.ws.repo, env: baselineGitEnv() }),
  );
  return {
    name: 'node history',
    measured: `canvas history, ${gen.commitsOf[ledger]}-commit canvas, ${spec.commits} commits over ${gen.ledgers.length} canvases`,
    baseline: 'git log --format=%H -n 1',
    target: '<= 0.5 s',
    ...cmp,
    pass: cmp.a.median <= 500,
    figure: 'median ms',
  };
}
