// `canvas hook` (docs/agents.md): fed the exact input JSON each documented harness sends, for
// each event, with and without a canvas, and malformed; the output checked against the
// harness's contract. Claude Code: stdin {session_id, transcript_path, cwd, permission_mode,
// hook_event_name, source | prompt}, stdout {"hookSpecificOutput":{"hookEventName","additionalContext"}}.
// The Copilot SDK: the handler's input {timestamp, cwd, source, initialPrompt} or {timestamp, cwd,
// prompt} on stdin, the session as --session, stdout {"additionalContext"}.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../src/render/format-date.js';
import { grantRole } from '../../src/store/write/access-writes.js';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { canvasLog } from '../../src/store/read/canvas-log.js';
import { insertNode } from '../../src/store/write/node-writes.js';
import type { Applied } from '../../src/store/repo/outcome.js';
import { readCanvasText } from '../../src/store/read/read-canvas.js';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';
import { resultOf, ROOT, runCli, tempWorkspace } from '../helpers/workspace.js';

/** What Claude Code sends a SessionStart hook (its hooks reference, "SessionStart input"). */
const sessionStart = (session: string, cwd: string) =>
  JSON.stringify({ session_id: session, transcript_path: `/home/u/.claude/projects/p/${session}.jsonl`, cwd, hook_event_name: 'SessionStart', source: 'startup', model: 'claude-sonnet-4-5' });
/** What Claude Code sends a UserPromptSubmit hook (its hooks reference, "UserPromptSubmit input"). */
const promptSubmit = (session: string, cwd: string) =>
  JSON.stringify({
    session_id: session,
    transcript_path: `/home/u/.claude/projects/p/${session}.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt: 'Go on with the release plan.',
  });

describe('canvas hook', () => {
  let ws: Workspace;
  /** A project directory whose .canvas-ledger names the canvas. */
  let project: string;
  /** A directory that names no canvas. */
  let elsewhere: string;
  let problem = '';
  const env = { CANVAS_LEDGER: '' };

  beforeAll(async () => {
    ws = tempWorkspace('canvas-hook-');
    const o = (await openCanvas(ws, { ledger: 'plan', problem: 'Ship the release.', expectedValue: 'A release on Friday.', why: 'plan the release', author: 'leo' })) as Applied;
    problem = o.nodes![0]!;
    await grantRole(ws, { ledger: 'plan', who: 'ana', role: 'editor', why: 'ana plans with leo', author: 'leo' });
    project = tempDir('canvas-hook-project-');
    writeFileSync(join(project, '.canvas-ledger'), '# the canvas of this project\n\nplan\n');
    elsewhere = tempDir('canvas-hook-elsewhere-');
  });

  const hook = (args: string[], input: string, extra: Record<string, string> = {}) => runCli(ws, ['hook', ...args], { ...env, ...extra }, input);
  const contextOf = (stdout: string, event: string) => {
    expect(stdout.endsWith('\n')).toBe(true);
    const out = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
    expect(Object.keys(out.hookSpecificOutput)).toEqual(['hookEventName', 'additionalContext']);
    expect(out.hookSpecificOutput.hookEventName).toBe(event);
    return out.hookSpecificOutput.additionalContext;
  };

  it('Claude Code, SessionStart: the prompt projection as additionalContext, byte for byte what canvas render --format prompt prints', async () => {
    const r = await hook(['claude-code'], sessionStart('s-1', project));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rendered = await runCli(ws, ['render', 'plan', '--format', 'prompt']);
    expect(rendered.code).toBe(0);
    expect(contextOf(r.stdout, 'SessionStart')).toBe(rendered.stdout);
    expect(rendered.stdout).toBe((await runCli(ws, ['render', 'plan', '--format', 'text'])).stdout);
  });

  it("Claude Code, UserPromptSubmit: nothing at all while nothing changed, then another writer's edit with its reason and the new sha, then nothing again", async () => {
    const quiet = await hook(['claude-code'], promptSubmit('s-1', project));
    expect(quiet).toEqual({ stdout: '', stderr: '', code: 0 });

    const seen = (await readCanvasText(ws, { ledger: 'plan' })).revision;
    const q = (await insertNode(ws, { ledger: 'plan', after: problem, payload: { question: 'Who signs off?' }, base: seen, why: 'nobody owns the sign-off yet', author: 'ana' })) as Applied;
    const [edit] = await canvasLog(ws, { ledger: 'plan', limit: 1 });
    const r = await hook(['claude-code'], promptSubmit('s-1', project));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(contextOf(r.stdout, 'UserPromptSubmit')).toBe(
      [
        `Canvas-Base: ${q.revision}`,
        '',
        `The canvas of ledger plan changed since you last saw it (at ${seen.slice(0, 7)}): write against the revision above.`,
        'Only what changed is here; every other node is as you saw it.',
        '',
        'Changed nodes, as they are now:',
        'At the top level:',
        `  [${q.node}] OPEN QUESTION: Who signs off?`,
        '',
        'Edits since (newest first, 1):',
        `- ${q.revision.slice(0, 7)} insert ${q.node} by ana, ${formatDate(edit!.date)}: nobody owns the sign-off yet`,
        '',
      ].join('\n'),
    );
    expect(await hook(['claude-code'], promptSubmit('s-1', project))).toEqual({ stdout: '', stderr: '', code: 0 });
  });

  it("the session's own edits are not news: the cursor passes over them, and a session that never started gets the whole canvas", async () => {
    const base = (await readCanvasText(ws, { ledger: 'plan' })).revision;
    const own = (await insertNode(ws, { ledger: 'plan', into: 'root', payload: { text: 'Notes go here.' }, base, why: 'a place for notes', author: 'ana | step:plan' })) as Applied;
    expect(own.outcome).toBe('applied');
    expect(await hook(['claude-code'], promptSubmit('s-1', project), { CANVAS_AUTHOR: 'ana | step:plan' })).toEqual({ stdout: '', stderr: '', code: 0 });
    // The cursor moved past it: the same session run without an author has nothing more either.
    expect(await hook(['claude-code'], promptSubmit('s-1', project))).toEqual({ stdout: '', stderr: '', code: 0 });
    const fresh = await hook(['claude-code'], promptSubmit('s-2', project));
    expect(contextOf(fresh.stdout, 'UserPromptSubmit')).toBe((await runCli(ws, ['render', 'plan', '--format', 'prompt'])).stdout);
  });

  it('finds the canvas by --ledger, else CANVAS_LEDGER, else .canvas-ledger in the cwd the input names', async () => {
    const byFlag = await hook(['claude-code', '--ledger', 'plan'], sessionStart('s-3', elsewhere));
    const byEnv = await hook(['claude-code'], sessionStart('s-4', elsewhere), { CANVAS_LEDGER: 'plan' });
    const byFile = await hook(['claude-code'], sessionStart('s-5', project));
    expect(byFlag.code + byEnv.code + byFile.code).toBe(0);
    expect(byEnv.stdout).toBe(byFlag.stdout);
    expect(byFile.stdout).toBe(byFlag.stdout);
    // --ledger wins over the environment.
    const wins = await hook(['claude-code', '--ledger', 'nope'], sessionStart('s-6', project), { CANVAS_LEDGER: 'plan' });
    expect(wins.stdout).toBe('');
    expect(wins.stderr).toContain('CANVAS_NOT_FOUND');
  });

  it('fails open without a canvas: nothing on stdout, why on stderr, exit 0; with --json the error object and its exit code', async () => {
    for (const input of [sessionStart('s-7', elsewhere), promptSubmit('s-7', elsewhere)]) {
      const r = await hook(['claude-code'], input);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^canvas: NO_LEDGER: canvas hook found no canvas to give: .*\.canvas-ledger\nhint: write the ledger id into /);
    }
    const json = await hook(['claude-code', '--json'], sessionStart('s-7', elsewhere));
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe('NO_LEDGER');
    const missing = await hook(['claude-code', '--ledger', 'gone'], sessionStart('s-7', project));
    expect(missing).toMatchObject({ stdout: '', code: 0 });
    expect(missing.stderr).toContain('canvas: CANVAS_NOT_FOUND: ');
  });

  it('fails open on malformed input: not JSON, not an object, another event, no session id, a mistyped command line', async () => {
    const cases: Array<[string[], string, string]> = [
      [['claude-code'], 'not json', 'HOOK_INPUT'],
      [['claude-code'], '[1,2]', 'HOOK_INPUT'],
      [['claude-code'], JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {} }), 'HOOK_INPUT'],
      [['claude-code'], JSON.stringify({ cwd: project, hook_event_name: 'SessionStart', source: 'startup' }), 'HOOK_INPUT'],
      [['claude-code', 'session-start'], sessionStart('s-8', project), 'USAGE'],
      [['copilot', 'session-start'], JSON.stringify({ timestamp: 1, cwd: project, source: 'new' }), 'USAGE'],
      [['codex'], sessionStart('s-8', project), 'USAGE'],
    ];
    for (const [args, input, code] of cases) {
      const r = await hook(args, input);
      expect(r, `${args.join(' ')} ${input}`).toMatchObject({ stdout: '', code: 0 });
      expect(r.stderr, `${args.join(' ')} ${input}`).toMatch(new RegExp(`^canvas: ${code}: `));
    }
    const json = await hook(['claude-code', '--json'], 'not json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'HOOK_INPUT', hint: expect.stringContaining('docs/agents.md') });
  });

  it('the Copilot SDK: onSessionStart gets {additionalContext} with the prompt, onUserPromptSubmitted nothing until the canvas moves', async () => {
    const start = await hook(
      ['copilot', 'session-start', '--session', 'cp-1', '--ledger', 'plan'],
      JSON.stringify({ timestamp: 1764790000000, cwd: elsewhere, source: 'new', initialPrompt: 'Plan the release.' }),
    );
    expect(start.stderr).toBe('');
    expect(start.code).toBe(0);
    const out = JSON.parse(start.stdout) as Record<string, string>;
    expect(Object.keys(out)).toEqual(['additionalContext']);
    expect(out.additionalContext).toBe((await runCli(ws, ['render', 'plan', '--format', 'prompt'])).stdout);
    const submitted = JSON.stringify({ timestamp: 1764790001000, cwd: project, prompt: 'Go on.' });
    expect(await hook(['copilot', 'user-prompt-submitted', '--session', 'cp-1'], submitted)).toEqual({ stdout: '', stderr: '', code: 0 });
    const base = (await readCanvasText(ws, { ledger: 'plan' })).revision;
    const q = (await insertNode(ws, { ledger: 'plan', into: 'root', payload: { text: 'Friday is fixed.' }, base, why: 'the date was agreed', author: 'ana' })) as Applied;
    const moved = await hook(['copilot', 'user-prompt-submitted', '--session', 'cp-1'], submitted);
    const context = (JSON.parse(moved.stdout) as { additionalContext: string }).additionalContext;
    expect(context.startsWith(`Canvas-Base: ${q.revision}\n`)).toBe(true);
    expect(context).toContain(`: the date was agreed\n`);
  });

  it('keeps each cursor outside the canvas history: no commit, no working file', async () => {
    const before = await canvasLog(ws, { ledger: 'plan' });
    await hook(['claude-code'], sessionStart('s-9', project));
    expect(await canvasLog(ws, { ledger: 'plan' })).toEqual(before);
    const { readSessionCursor } = await import('../../src/store/watch/session-cursor.js');
    expect(readSessionCursor(ws, 's-9', 'plan')).toBe(before[0]!.commit);
  });

  it('runs as docs/agents.md configures Claude Code, on the input the page shows', async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'agents.md'), 'utf8');
    const settings = JSON.parse(/```json \.claude\/settings\.json\n([\s\S]*?)```/.exec(doc)![1]!) as { hooks: Record<string, Array<{ hooks: Array<{ type: string; command: string }> }>> };
    expect(Object.keys(settings.hooks)).toEqual(['SessionStart', 'UserPromptSubmit']);
    const inputs = /The input the hook reads:\n\n```json\n([\s\S]*?)```/.exec(doc)![1]!.trim().split('\n');
    expect(inputs).toHaveLength(2);
    const given: string[] = [];
    for (const [i, event] of (['SessionStart', 'UserPromptSubmit'] as const).entries()) {
      const [hook] = settings.hooks[event]![0]!.hooks;
      expect(hook!.type).toBe('command');
      expect(hook!.command).toMatch(/^canvas hook claude-code /);
      // The page's command, with this checkout's canvas and this test's workspace.
      const command = hook!.command.replace(/^canvas /, `"${process.execPath}" "${join(ROOT, 'bin', 'canvas.js')}" `).replace('/srv/work/acme', ws.root);
      const input = JSON.parse(inputs[i]!) as Record<string, unknown>;
      expect(input.hook_event_name).toBe(event);
      input.cwd = project;
      const child = spawn('sh', ['-c', command], { env: { ...process.env, CANVAS_WORKSPACE: '', CANVAS_AUTHOR: '', CANVAS_LEDGER: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
      const r = await resultOf(child, JSON.stringify(input));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      given.push(r.stdout === '' ? '' : contextOf(r.stdout, event));
    }
    // The session starts with the whole prompt; its first prompt, nothing having changed, adds nothing.
    expect(given).toEqual([(await runCli(ws, ['render', 'plan', '--format', 'prompt'])).stdout, '']);
  });
});
