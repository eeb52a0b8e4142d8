import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveWorkspace, type Workspace } from '../../src/store/repo/workspace.js';
import { runMain } from '../helpers/run-main.js';
import { baseOf, type CliResult, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

// Every refusal of docs/errors.md that a write meets, one test each: the code, the exit code, and the repository and
// working file byte-for-byte unchanged. They run through the CLI's entry in process (its parsing,
// its single catch and its exit code mapping); a few run as real processes (`runCli`) to pin the
// exit code and the streams a user sees.

let ws: Workspace;
let base: string;
let section: string;
let child: string;
let text: string;

async function ok(args: string[]): Promise<{ node: string; revision: string }> {
  const r = await runMain(ws, [...args, '--json']);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return JSON.parse(r.stdout) as { node: string; revision: string };
}

// The workspace every test starts from is written once; each test gets a copy of it (some write).
let template: Workspace;
beforeAll(async () => {
  ws = template = tempWorkspace();
  await ok(['create', 't1', '--why', 'a canvas for the tests']);
  base = baseOf((await runMain(ws, ['read', 't1'])).stdout);
  const s = await ok(['insert', 't1', '--into', 'root', '--section', 'Options', '--base', base, '--why', 'room for the options']);
  section = s.node;
  const c = await ok(['insert', 't1', '--into', section, '--text', 'Option A is fast.', '--base', s.revision, '--why', 'first option']);
  child = c.node;
  const t = await ok(['insert', 't1', '--after', section, '--text', 'Plain text.', '--base', c.revision, '--why', 'a paragraph']);
  text = t.node;
  base = t.revision;
});

beforeEach(() => {
  const root = join(tempDir('canvas-refusals-'), 'ws');
  cpSync(template.root, root, { recursive: true });
  ws = resolveWorkspace({ workspace: root });
});

type Run = (ws: Workspace, args: string[]) => Promise<CliResult>;

/**
 * Run a refused command (in process, or as a real process with `runCli`): assert exit code and
 * code, one JSON document on stdout and nothing on stderr, and that nothing changed.
 */
async function refused(args: string[], exit: number, code: string, run: Run = runMain): Promise<void> {
  const before = repoState(ws);
  const r = await run(ws, [args[0]!, '--json', ...args.slice(1)]);
  expect(r.code, r.stdout + r.stderr).toBe(exit);
  const out = JSON.parse(r.stdout) as { code?: string; outcome?: string; error?: { code: string } };
  expect(out.code ?? out.error?.code).toBe(code);
  expect(r.stderr).toBe('');
  expect(repoState(ws)).toEqual(before);
}

describe('refusals leave the repository and working file untouched', () => {
  it('a section with children removed: HAS_CHILDREN, naming the child', async () => {
    await refused(['remove', 't1', section, '--base', base, '--why', 'drop it'], 2, 'HAS_CHILDREN', runCli);
    const before = repoState(ws);
    const r = await runCli(ws, ['remove', 't1', section, '--base', base, '--why', 'drop it']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(child);
    expect(repoState(ws)).toEqual(before);
  });

  it('a section with children rewritten as another type: HAS_CHILDREN', async () => {
    await refused(['replace', 't1', section, '--text', 'flat now', '--base', base, '--why', 'flatten'], 2, 'HAS_CHILDREN');
  });

  it('a section payload with children: PAYLOAD_CHILDREN', async () => {
    const xml = '<section title="New"><text>inside</text></section>';
    await refused(['replace', 't1', section, '--xml', xml, '--base', base, '--why', 'rewrite the subtree'], 2, 'PAYLOAD_CHILDREN');
    await refused(['insert', 't1', '--into', 'root', '--xml', xml, '--base', base, '--why', 'born full'], 2, 'PAYLOAD_CHILDREN');
  });

  it('a payload carrying id or v: PAYLOAD_HAS_ID', async () => {
    await refused(['replace', 't1', text, '--xml', `<text id="${text}">x</text>`, '--base', base, '--why', 'x'], 2, 'PAYLOAD_HAS_ID');
    await refused(['insert', 't1', '--into', 'root', '--xml', '<text v="3">x</text>', '--base', base, '--why', 'x'], 2, 'PAYLOAD_HAS_ID');
  });

  it('a missing reason: BAD_REASON', async () => {
    await refused(['replace', 't1', text, '--text', 'x', '--base', base], 2, 'BAD_REASON');
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', '   '], 2, 'BAD_REASON');
  });

  it('a multi-line reason: BAD_REASON', async () => {
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'line one\nline two'], 2, 'BAD_REASON');
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'carriage\rreturn'], 2, 'BAD_REASON');
  });

  it('a reason with a control character or U+2028: BAD_REASON', async () => {
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'bell\u0007'], 2, 'BAD_REASON');
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'next\u0085line'], 2, 'BAD_REASON');
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'line\u2028separator'], 2, 'BAD_REASON');
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'x'.repeat(501)], 2, 'BAD_REASON');
  });

  it('a stale base: conflict, exit 3, with the node diff and the reason in between', async () => {
    const moved = await ok(['replace', 't1', text, '--text', 'Changed by someone else.', '--base', base, '--why', 'someone else edited it']);
    const before = repoState(ws);
    const r = await runCli(ws, ['replace', 't1', text, '--text', 'mine', '--base', base, '--why', 'my edit', '--json']);
    expect(r.code).toBe(3);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node: text, expectedRevision: base, currentRevision: moved.revision });
    expect(o.diff[0].commits[0].reason).toBe('someone else edited it');
    expect(o.diff[0].after.xml).toContain('Changed by someone else.');
    expect(repoState(ws)).toEqual(before);
  });

  it('an unknown base: UNKNOWN_BASE, whose hint names the canvas to read', async () => {
    await refused(['replace', 't1', text, '--text', 'x', '--base', 'deadbeefdeadbeef', '--why', 'x'], 2, 'UNKNOWN_BASE');
    await refused(['replace', 't1', text, '--text', 'x', '--base', 'HEAD', '--why', 'x'], 2, 'UNKNOWN_BASE');
    for (const bad of ['deadbeefdeadbeef', 'HEAD']) {
      const r = await runMain(ws, ['replace', 't1', text, '--text', 'x', '--base', bad, '--why', 'x']);
      expect(r.stderr).toContain('`canvas read t1`');
    }
  });

  it('a missing base: BASE_REQUIRED', async () => {
    await refused(['replace', 't1', text, '--text', 'x', '--why', 'x'], 2, 'BASE_REQUIRED');
  });

  it('--require after any change: conflict, exit 3', async () => {
    await ok(['insert', 't1', '--into', 'root', '--text', 'unrelated', '--base', base, '--why', 'an unrelated edit']);
    const before = repoState(ws);
    const r = await runMain(ws, ['replace', 't1', text, '--text', 'x', '--require', base, '--why', 'strict', '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'conflict', code: 'REQUIRE_CHANGED', expectedRevision: base });
    expect(repoState(ws)).toEqual(before);
  });

  it('a DOCTYPE: UNSAFE_XML', async () => {
    await refused(['insert', 't1', '--into', 'root', '--xml', '<!DOCTYPE text><text>x</text>', '--base', base, '--why', 'x'], 2, 'UNSAFE_XML');
  });

  it('an entity bomb: UNSAFE_XML, never expanded', async () => {
    const bomb =
      '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><text>&lol3;</text>';
    await refused(['insert', 't1', '--into', 'root', '--xml', bomb, '--base', base, '--why', 'x'], 2, 'UNSAFE_XML');
    await refused(['insert', 't1', '--into', 'root', '--xml', '<text>&lol3;</text>', '--base', base, '--why', 'x'], 2, 'UNSAFE_XML');
    await refused(['insert', 't1', '--into', 'root', '--xml', '<text>x<!-- c --></text>', '--base', base, '--why', 'x'], 2, 'UNSAFE_XML');
    await refused(['insert', 't1', '--into', 'root', '--xml', '<?xml version="1.0"?><text>x</text>', '--base', base, '--why', 'x'], 2, 'UNSAFE_XML');
  });

  it('an unknown element: SCHEMA', async () => {
    await refused(['insert', 't1', '--into', 'root', '--xml', '<decision>A</decision>', '--base', base, '--why', 'x'], 2, 'SCHEMA');
    await refused(['insert', 't1', '--into', 'root', '--xml', '<list><item>a</item><div>b</div></list>', '--base', base, '--why', 'x'], 2, 'SCHEMA');
  });

  it('an unknown attribute: SCHEMA', async () => {
    await refused(['insert', 't1', '--into', 'root', '--xml', '<text open="true">x</text>', '--base', base, '--why', 'x'], 2, 'SCHEMA');
    await refused(['insert', 't1', '--into', 'root', '--xml', '<text style="color:red">x</text>', '--base', base, '--why', 'x'], 2, 'SCHEMA');
  });

  it('a bad ledger id: BAD_LEDGER_ID before any file is touched', async () => {
    for (const bad of ['../x', 'A', 'x.xml', '', '-x', 'a/b', 'a..b', 'a.', 'a.lock']) {
      await refused(['create', '--why', 'x', '--', bad], 2, 'BAD_LEDGER_ID');
    }
  });

  it('a dirty working file: DIRTY_WORKTREE, and what the person typed stays', async () => {
    const path = join(ws.repo, 't1.xml');
    const typed = readFileSync(path, 'utf8').replace('Plain text.', 'Typed by hand.');
    writeFileSync(path, typed);
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'x'], 2, 'DIRTY_WORKTREE');
    expect(readFileSync(path, 'utf8')).toBe(typed);
  });

  it('a commit made by hand on main: FOREIGN_COMMIT, nothing written on top of it', async () => {
    execFileSync('git', ['-c', 'user.name=x', '-c', 'user.email=x@y', 'commit', '-q', '--allow-empty', '-m', 'by hand'], { cwd: ws.repo });
    const head = execFileSync('git', ['rev-parse', 'main'], { cwd: ws.repo, encoding: 'utf8' }).trim();
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'x'], 2, 'FOREIGN_COMMIT');
    const r = await runMain(ws, ['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`update-ref refs/heads/main ${base} ${head}`);
  });

  it('a missing author and a malformed author: BAD_AUTHOR', async () => {
    await refused(['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'x', '--author', 'leo | nope:x'], 2, 'BAD_AUTHOR');
    const before = repoState(ws);
    const r = await runCli(ws, ['replace', 't1', text, '--text', 'x', '--base', base, '--why', 'x', '--json'], { CANVAS_AUTHOR: '' });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).code).toBe('BAD_AUTHOR');
    expect(repoState(ws)).toEqual(before);
  });

  it('a replace that changes nothing: NO_CHANGE', async () => {
    await refused(['replace', 't1', text, '--text', 'Plain text.', '--base', base, '--why', 'same'], 2, 'NO_CHANGE');
  });

  it('a move into its own subtree or a section into a section: MOVE_INTO_SELF, NESTING', async () => {
    await refused(['move', 't1', section, '--after', child, '--base', base, '--why', 'x'], 2, 'MOVE_INTO_SELF');
    // One level: a section may sit in a root-level section, never deeper.
    const s2 = await ok(['insert', 't1', '--into', section, '--section', 'Nested', '--base', base, '--why', 'a nested section']);
    await refused(['insert', 't1', '--into', s2.node, '--section', 'Too deep', '--base', s2.revision, '--why', 'x'], 2, 'NESTING');
    const s3 = await ok(['insert', 't1', '--into', 'root', '--section', 'Third', '--base', s2.revision, '--why', 'another section']);
    await refused(['move', 't1', section, '--into', s3.node, '--base', s3.revision, '--why', 'x'], 2, 'NESTING');
  });

  it('a refused argument holding an escape sequence or a bidi control is shown, not obeyed, on the terminal', async () => {
    const hostile = 'zz\u001b[2J\u202ezz';
    const r = await runMain(ws, ['remove', 't1', hostile, '--base', base, '--why', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('zz\\u001b[2J\\u202ezz is not a node');
    expect(r.stderr).not.toMatch(/[\u001b\u202e]/);
    const j = await runMain(ws, ['remove', 't1', hostile, '--base', base, '--why', 'x', '--json']);
    expect((JSON.parse(j.stdout) as { reason: string }).reason).toContain(hostile);
    const e = await runMain(ws, ['read', 't1', '--at', `${base.slice(0, 8)}\u2066`]);
    expect(e.stderr).toContain('\\u2066');
    expect(e.stderr).not.toContain('\u2066');
  });

  it('an unknown node: NODE_NOT_FOUND; --into a non-section: BAD_ANCHOR', async () => {
    await refused(['remove', 't1', 'zzzz', '--base', base, '--why', 'x'], 2, 'NODE_NOT_FOUND');
    await refused(['insert', 't1', '--into', text, '--text', 'x', '--base', base, '--why', 'x'], 2, 'BAD_ANCHOR');
  });

  it('usage errors exit 2 with code USAGE', async () => {
    await refused(['insert', 't1', '--text', 'x', '--base', base, '--why', 'x'], 2, 'USAGE');
    await refused(['insert', 't1', '--into', 'root', '--text', 'x', '--question', 'y', '--base', base, '--why', 'x'], 2, 'USAGE');
    await refused(['replace', 't1'], 2, 'USAGE');
    await refused(['frobnicate'], 2, 'USAGE');
    await refused(['replace', 't1', '--text', 'x'], 2, 'USAGE', runCli);
  });
});
