// canvas inbox over 10,000 unread changes: a watcher of every canvas, each cursor at its canvas's
// create, so every later commit of the repository is unread. The whole process against git
// printing the same commits with their patches (`git log -p` of main), in the same run.
import { readInbox } from '../../src/store/read/read-inbox.js';
import { RepoReader } from '../../src/store/repo/repo-reader.js';
import { createWatch } from '../../src/store/watch/watch-files.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { type BenchContext, type BenchResult, baselineGitArgs, baselineGitEnv, cliCommand, cliEnv, copyWorkspace, pairs } from '../lib/context.js';
import { generateWorkspace } from '../lib/generate-workspace.js';
import { interleave, plus, timeCall, timeProcess } from '../lib/measure.js';
import { inboxWorkspace } from '../lib/workspaces.js';

const WATCHER = 'reader';

/** Make `reader` a watcher of every canvas with its cursor at the canvas's create. */
async function watchEveryCreate(ws: Workspace, ledgers: readonly string[], revisions: Record<string, string>): Promise<void> {
  const reader = new RepoReader(ws);
  try {
    for (const ledger of ledgers) {
      let create = '';
      for await (const c of reader.chain(revisions[ledger]!)) create = c.sha;
      createWatch(ws, { who: WATCHER, ledger, since: '2026-01-01T00:00:00.000Z', cursor: create });
    }
  } finally {
    reader.close();
  }
}

/** `canvas inbox --json` vs `node -e 0` + `git log -p main`; and `readInbox` in process vs `git log -p main`. */
export async function inboxBench(ctx: BenchContext): Promise<BenchResult[]> {
  const spec = inboxWorkspace(ctx.quick);
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const ws = copyWorkspace(ctx, gen.ws, 'inbox');
  await watchEveryCreate(ws, gen.ledgers, gen.revisions);
  const unread = spec.commits - gen.ledgers.length;
  const [node, pre] = cliCommand(ctx);
  const env = cliEnv(ws, WATCHER);
  const inbox = () => {
    const r = timeProcess(node, [...pre, 'inbox', '--json'], { env });
    const n = (JSON.parse(r.stdout) as { events: unknown[] }).events.length;
    if (n !== unread) throw new Error(`canvas inbox showed ${n} events, not ${unread}`);
    return r;
  };
  const gitLog = () => timeProcess('git', [...baselineGitArgs(ws.repo), 'log', '-p', '--no-color', 'main'], { cwd: ws.repo, env: baselineGitEnv() });
  const cli = await interleave(...pairs(ctx, 8, 1), inbox, () => plus(timeProcess(process.execPath, ['-e', '0']), gitLog()));
  const lib = await interleave(
    ...pairs(ctx, 8, 1),
    () =>
      timeCall(async () => {
        const got = await readInbox(ws, { author: WATCHER });
        if (got.events.length !== unread) throw new Error(`readInbox showed ${got.events.length} events, not ${unread}`);
      }),
    () => gitLog().ms,
  );
  const what = `${unread} unread changes on ${gen.ledgers.length} canvases (${spec.commits} commits)`;
  return [
    {
      name: 'CLI inbox',
      measured: `canvas inbox --json, ${what}`,
      baseline: 'node -e 0 + git log -p main',
      target: 'CPU ratio <= 4',
      ...cli,
      pass: cli.cpu ? cli.cpu.ratio.median <= 4 : null,
      figure: 'CPU ratio',
    },
    {
      name: 'inbox, in process',
      measured: `readInbox, ${what}`,
      baseline: 'git log -p main',
      target: 'none (the process figure is judged)',
      ...lib,
      pass: null,
      figure: 'ratio',
    },
  ];
}
