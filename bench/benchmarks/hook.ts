// `canvas hook claude-code` against `canvas read` of the same canvas, in the same run
// (docs/performance.md, "The hook before each prompt"): the hook runs before every message a
// person sends, so before each prompt it may cost at most 1.5 times a read, on CPU (the process
// and the git processes it leaves running). Three cases: nothing changed since the session's
// cursor (the common one), one edit by another writer since it, and the session's start (the
// whole prompt, once a session: a figure, not judged).
import { join } from 'node:path';
import { RepoReader } from '../../src/store/repo/repo-reader.js';
import { saveSessionCursor } from '../../src/store/watch/session-cursor.js';
import { type BenchContext, type BenchResult, cliCommand, cliEnv, copyWorkspace, pairs } from '../lib/context.js';
import { generateWorkspace } from '../lib/generate-workspace.js';
import { gitCpuLog, timeCli } from '../lib/git-cpu.js';
import { interleave } from '../lib/measure.js';
import { editWorkspace } from '../lib/workspaces.js';

/** The hook's reader: not the generator's author, so every generated edit is another writer's. */
const READER = 'agent | step:bench';

/** What Claude Code sends each hook (docs/agents.md, "Claude Code"). */
const input = (event: 'SessionStart' | 'UserPromptSubmit', cwd: string) =>
  JSON.stringify({ session_id: 'bench-session', transcript_path: '/tmp/bench-session.jsonl', cwd, hook_event_name: event, ...(event === 'SessionStart' ? { source: 'startup' } : { prompt: 'Go on.' }) });

/** The hook before a prompt (nothing changed; one edit since) and at a session's start, each against `canvas read`. */
export async function hookBench(ctx: BenchContext): Promise<BenchResult[]> {
  const spec = editWorkspace(ctx.quick);
  const gen = await generateWorkspace(spec, ctx.root, ctx.log);
  const ws = copyWorkspace(ctx, gen.ws, 'hook');
  const [node, pre] = cliCommand(ctx);
  const gitLog = gitCpuLog(join(ctx.scratch, 'hook-git'), process.env);
  const env = cliEnv(ws, READER);
  const revision = gen.revisions.big!;
  const reader = new RepoReader(ws);
  let previous: string;
  try {
    previous = (await reader.commit(revision))!.trailers['Canvas-Previous']!;
  } finally {
    reader.close();
  }
  const read = () => {
    const r = timeCli(node, [...pre, 'read', 'big'], { env }, gitLog);
    if (!r.stdout.startsWith(`Canvas-Base: ${revision}\n`)) throw new Error(`canvas read printed:\n${r.stdout.slice(0, 200)}`);
    return r;
  };
  const hook = (event: 'SessionStart' | 'UserPromptSubmit', check: (stdout: string) => boolean) => () => {
    const r = timeCli(node, [...pre, 'hook', 'claude-code', '--ledger', 'big', '--json'], { env, input: input(event, ctx.scratch) }, gitLog);
    if (!check(r.stdout)) throw new Error(`canvas hook (${event}) printed:\n${r.stdout.slice(0, 300)}`);
    return r;
  };
  const context = (stdout: string) => (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  const [runs, warmup] = pairs(ctx, 30, 3);

  const start = await interleave(
    runs,
    warmup,
    hook('SessionStart', (out) => context(out).includes(`Canvas-Base: ${revision}\n`)),
    read,
  );
  // The session has seen the canvas at its revision: each prompt after it finds nothing new.
  saveSessionCursor(ws, 'bench-session', 'big', revision);
  const unchanged = await interleave(
    runs,
    warmup,
    hook('UserPromptSubmit', (out) => out === ''),
    read,
  );
  // One edit by another writer since the session's cursor: the cursor is put back before each run.
  const oneEdit = hook('UserPromptSubmit', (out) => context(out).includes('Edits since (newest first, 1):'));
  const changed = await interleave(
    runs,
    warmup,
    () => {
      saveSessionCursor(ws, 'bench-session', 'big', previous);
      return oneEdit();
    },
    read,
  );
  const what = `${gen.nodes.big!.length}-node canvas, ${spec.commits} commits`;
  const row = (name: string, measured: string, c: typeof start, judged: boolean): BenchResult => ({
    name,
    measured: `${measured}, ${what}`,
    baseline: 'canvas read of the same canvas, in the same run',
    target: judged ? 'CPU ratio <= 1.5' : 'none (once a session)',
    ...c,
    pass: judged ? c.cpu!.ratio.median <= 1.5 : null,
    figure: 'CPU ratio',
  });
  return [
    row('hook, prompt, nothing changed', 'canvas hook claude-code on UserPromptSubmit, the canvas as the session last saw it: prints nothing', unchanged, true),
    row('hook, prompt, one edit since', "canvas hook claude-code on UserPromptSubmit, one other writer's edit since the session's cursor: prints it", changed, true),
    row('hook, session start', 'canvas hook claude-code on SessionStart: the whole prompt projection', start, false),
  ];
}
