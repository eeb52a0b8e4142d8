// CLI read and node history: whole processes against the git command that fetches the same kind
// of thing.
import { join } from 'node:path';
import { type BenchContext, type BenchResult, baselineGitArgs, baselineGitEnv, cliCommand, cliEnv } from '../lib/context.js';
import { GEN_AUTHOR, generateWorkspace } from '../lib/generate-workspace.js';
import { gitCpuLog, timeCli } from '../lib/git-cpu.js';
import { interleave, plus, timeProcess } from '../lib/measure.js';
import { editWorkspace, historyWorkspace } from '../lib/workspaces.js';

/** `canvas read` vs `node -e 0` plus `git cat-file -p HEAD:<file>`. */
export async function cliRead(ctx: BenchContext): Promise<BenchResult> {
  const spec = editWorkspace(ctx.quick);
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const [node, pre] = cliCommand(ctx);
  const gitLog = gitCpuLog(join(ctx.scratch, 'cli-read-git'), process.env);
  const env = cliEnv(gen.ws, GEN_AUTHOR);
  const expected = gen.revisions.big!;
  const cmp = await interleave(
    ctx.quick ? 8 : 40,
    ctx.quick ? 2 : 5,
    () => {
      const r = timeCli(node, [...pre, 'read', 'big'], { env }, gitLog);
      if (!r.stdout.startsWith(`Canvas-Base: ${expected}\n`)) throw new Error(`canvas read printed:\n${r.stdout.slice(0, 200)}`);
      return r;
    },
    () =>
      plus(
        timeProcess(process.execPath, ['-e', '0']),
        timeProcess('git', [...baselineGitArgs(gen.ws.repo), 'cat-file', '-p', 'HEAD:big.xml'], { cwd: gen.ws.repo, env: baselineGitEnv() }),
      ),
  );
  return {
    name: 'CLI read',
    measured: `canvas read, ${gen.nodes.big!.length}-node canvas, ${spec.commits} commits`,
    baseline: 'node -e 0 + git cat-file -p HEAD:<file>',
    target: 'CPU ratio <= 1.3',
    ...cmp,
    pass: cmp.cpu!.ratio.median <= 1.3,
    figure: 'ratio',
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
    ctx.quick ? 8 : 30,
    ctx.quick ? 2 : 3,
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
