// canvas list over 1,000 canvases: the whole process against the git command that lists the same
// canvases (their refs), warm (the caches current, as after any write) and from a clone's state
// (no cache under .git/canvas-cache/, so every chain is folded and every tree parsed).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { listCanvasEntries } from '../../src/store/read/list-canvas-entries.js';
import { type BenchContext, type BenchResult, baselineGitArgs, baselineGitEnv, cliCommand, cliEnv, copyWorkspace, pairs } from '../lib/context.js';
import { GEN_AUTHOR, generateWorkspace } from '../lib/generate-workspace.js';
import { interleave, timeCall, timeProcess } from '../lib/measure.js';
import { listWorkspace } from '../lib/workspaces.js';

/** `canvas list --json` vs `node -e 0` plus `git for-each-ref refs/canvas/`; and the cold list, in process. */
export async function cliList(ctx: BenchContext): Promise<BenchResult[]> {
  const spec = listWorkspace(ctx.quick);
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  // list writes its caches: a copy keeps the generated workspace as generated.
  const ws = copyWorkspace(ctx, gen.ws, 'list');
  const [node, pre] = cliCommand(ctx);
  const env = cliEnv(ws, GEN_AUTHOR);
  const count = gen.ledgers.length;
  const list = () => {
    const r = timeProcess(node, [...pre, 'list', '--json'], { env });
    const n = (JSON.parse(r.stdout) as { canvases: unknown[] }).canvases.length;
    if (n !== count) throw new Error(`canvas list listed ${n} canvases, not ${count}`);
    return r.ms;
  };
  const refs = () =>
    timeProcess(process.execPath, ['-e', '0']).ms +
    timeProcess('git', [...baselineGitArgs(ws.repo), 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/canvas/'], { cwd: ws.repo, env: baselineGitEnv() }).ms;
  const warm = await interleave(...pairs(ctx, 20, 2), list, refs);
  const cache = join(ws.repo, '.git', 'canvas-cache');
  const cold = await interleave(
    ctx.quick ? 2 : 3,
    0,
    async () => {
      rmSync(cache, { recursive: true, force: true });
      return timeCall(() => listCanvasEntries(ws));
    },
    refs,
    false,
  );
  return [
    {
      name: 'CLI list',
      measured: `canvas list --json, ${count} canvases, ${spec.commits} commits, caches current`,
      baseline: 'node -e 0 + git for-each-ref refs/canvas/',
      target: 'ratio <= 3',
      ...warm,
      pass: warm.ratio.median <= 3,
      figure: 'ratio',
    },
    {
      name: 'list, no caches',
      measured: `listCanvasEntries in process, ${count} canvases, ${spec.commits} commits, .git/canvas-cache/ removed first`,
      baseline: 'node -e 0 + git for-each-ref refs/canvas/',
      target: 'none (a clone pays it once)',
      ...cold,
      pass: null,
      figure: 'median ms',
    },
  ];
}
