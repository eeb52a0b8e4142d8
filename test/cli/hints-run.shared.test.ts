import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

// A hint that names a command is followed as a person follows it (docs/errors.md): each refusal
// below is made, every `canvas …` command its hint names is taken, its placeholders filled (`<sha>`
// with the canvas's revision as a read prints it, `"..."` with a reason, `<title>` with a title),
// and run. It must do what the hint says it does: exit 0. A hint that names no command must not
// send the reader to do what the refused command was not doing (a build is not a write).

let ws: Workspace;
let section = '';
let children: string[] = [];
let node = '';

async function revision(ledger: string): Promise<string> {
  return baseOf((await runMain(ws, ['read', ledger])).stdout);
}

/** The words of a command line quoted with double quotes only, as the hints quote. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** The commands a hint names: each `canvas <verb> …` up to a `;`, a bracket, a backtick or an "or". */
function commandsOf(hint: string): string[] {
  return hint
    .split(/;|\(|\)|`|\s+or\s+/)
    .map((piece) => /\bcanvas ([a-z][a-z-]* ?.*)$/.exec(piece.trim())?.[1]?.trim())
    .filter((c): c is string => c !== undefined);
}

/** Refuse with `args`, then follow every command of the hint; returns the hint. */
async function follow(args: string[], code: string, env: Record<string, string> = {}): Promise<{ hint: string; ran: string[] }> {
  const r = await runMain(ws, args, env);
  expect(r.code, r.stdout + r.stderr).not.toBe(0);
  expect(r.stderr + r.stdout).toContain(code);
  const hint = /^hint: (.*)$/m.exec(r.stderr)?.[1] ?? '';
  expect(hint, r.stderr).not.toBe('');
  const ran: string[] = [];
  for (const command of commandsOf(hint)) {
    const ledger = words(command)[1] ?? '';
    const sha = /^[a-z0-9][a-z0-9._-]*$/.test(ledger) && command.includes('<sha>') ? await revision(ledger) : '';
    const filled = words(command.replaceAll('<sha>', sha).replaceAll('"..."', '"following the hint"').replaceAll('"<title>"', '"Options, kept"'));
    const done = await runMain(ws, filled);
    expect(done.code, `the hint of ${code}: canvas ${command}\n${done.stdout}${done.stderr}`).toBe(0);
    ran.push(command);
  }
  return { hint, ran };
}

beforeAll(async () => {
  ws = tempWorkspace('canvas-hints-run-');
  expect((await runMain(ws, ['create', 'h1', '--why', 'a canvas for hints'])).code).toBe(0);
  const s = await runMain(ws, ['insert', 'h1', '--into', 'root', '--section', 'Options', '--base', await revision('h1'), '--why', 'room', '--json']);
  section = (JSON.parse(s.stdout) as { node: string }).node;
  for (const text of ['Option A.', 'Option B.']) {
    const c = await runMain(ws, ['insert', 'h1', '--into', section, '--text', text, '--base', await revision('h1'), '--why', 'an option', '--json']);
    children.push((JSON.parse(c.stdout) as { node: string }).node);
  }
  const t = await runMain(ws, ['insert', 'h1', '--after', section, '--text', 'Plain.', '--base', await revision('h1'), '--why', 'a text', '--json']);
  node = (JSON.parse(t.stdout) as { node: string }).node;
});

describe('a hint that names a command works when copied', () => {
  it('a section with children made another type: removing each child, or replacing the title', async () => {
    const { ran } = await follow(['replace', 'h1', section, '--text', 'flat', '--base', await revision('h1'), '--why', 'flatten'], 'HAS_CHILDREN');
    expect(ran.map((c) => words(c)[0])).toEqual(['remove', 'remove', 'replace']);
    children = [];
  });

  it('a section with children removed: each child removed, each against the latest base', async () => {
    for (const text of ['Option C.', 'Option D.']) {
      const c = await runMain(ws, ['insert', 'h1', '--into', section, '--text', text, '--base', await revision('h1'), '--why', 'an option', '--json']);
      children.push((JSON.parse(c.stdout) as { node: string }).node);
    }
    const { ran } = await follow(['remove', 'h1', section, '--base', await revision('h1'), '--why', 'drop it'], 'HAS_CHILDREN');
    expect(ran).toHaveLength(2);
    // The section is empty now: the remove the hint led to is taken.
    expect((await runMain(ws, ['remove', 'h1', section, '--base', await revision('h1'), '--why', 'drop it'])).code).toBe(0);
  });

  it('a write without a base: the read it names', async () => {
    const { ran } = await follow(['replace', 'h1', node, '--text', 'Plainer.', '--why', 'w'], 'BASE_REQUIRED');
    expect(ran.map((c) => words(c)[0])).toContain('read');
  });

  it('a stale base: the read it names', async () => {
    const old = await revision('h1');
    expect((await runMain(ws, ['replace', 'h1', node, '--text', 'Plainest.', '--base', old, '--why', 'first'])).code).toBe(0);
    const { ran } = await follow(['replace', 'h1', node, '--text', 'Other.', '--base', old, '--why', 'second'], 'conflict');
    expect(ran.map((c) => words(c)[0])).toContain('read');
  });

  it('a writer without a role: the grant an owner runs', async () => {
    const { ran } = await follow(['replace', 'h1', node, '--text', 'By zed.', '--base', await revision('h1'), '--why', 'zed'], 'NO_ROLE', { CANVAS_AUTHOR: 'zed' });
    expect(ran.map((c) => words(c)[0])).toContain('grant');
  });

  it('a canvas that is not there: the commands it names', async () => {
    await follow(['read', 'h2'], 'CANVAS_NOT_FOUND');
  });

  it('a build from a path that is no repository: nothing about writing', async () => {
    const out = tempDir('canvas-hints-out-');
    const { hint } = await follow(['build', '--from', '/no/such/path', '--out', out], 'REMOTE_UNREACHABLE');
    expect(hint).not.toMatch(/writ/);
    expect(hint).toContain('--from');
  });
});
