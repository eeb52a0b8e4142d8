// canvas import through the CLI's entry in process; one refusal runs as a real process to pin
// its exit code and stream.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { baseOf, repoState, runCli, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

const MD = '---\nstatus: accepted\n---\n# Pick a store\n\n## Options\n\n* git, *because* history\n* a database\n\n---\n\nSee [the notes](notes.md).\n';

function markdownFile(text = MD, name = 'pick-a-store.md'): string {
  const file = join(tempDir('canvas-md-'), name);
  writeFileSync(file, text);
  return file;
}

describe('canvas import', () => {
  it('imports the file, prints the revision, the node count and each flattening line', async () => {
    const ws = tempWorkspace();
    const r = await runMain(ws, ['import', 'pick-a-store', '--markdown', markdownFile(), '--why', 'start from the written record']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('imported pick-a-store.md as canvas pick-a-store: 5 node(s)');
    expect(lines[1]).toMatch(/^Canvas-Base: [0-9a-f]{40}$/);
    expect(lines.slice(2)).toEqual([
      'flattened (3, see docs/import.md):',
      '  line 8: emphasis flattened to plain text: "because"',
      '  line 11: thematic break skipped',
      '  line 13: link flattened to its text "the notes" (address notes.md)',
    ]);
    const read = await runMain(ws, ['read', 'pick-a-store']);
    expect(baseOf(read.stdout)).toBe(baseOf(r.stdout));
    expect(read.stdout).toContain('<item>git, because history</item>');
    expect(read.stdout).toContain('title="Options"');
  });

  it('prints the ImportResult with --json', async () => {
    const ws = tempWorkspace();
    const r = await runMain(ws, ['import', 'pick-json', '--markdown', markdownFile(), '--why', 'start from the written record', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(['blocks', 'flattened', 'ledger', 'nodes', 'revision']);
    expect(out).toMatchObject({ ledger: 'pick-json', blocks: 5 });
    expect((out.nodes as Array<{ type: string; line: number }>).map((n) => [n.type, n.line])).toEqual([
      ['list', 1],
      ['text', 4],
      ['section', 6],
      ['list', 8],
      ['text', 13],
    ]);
    expect(out.flattened).toHaveLength(3);
  });

  it('refuses a missing file as a usage error (exit 2) and writes nothing', async () => {
    const ws = tempWorkspace();
    const r = await runCli(ws, ['import', 'nofile', '--markdown', join(ws.root, 'missing.md'), '--why', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^canvas: USAGE: cannot read --markdown /);
    expect(repoState(ws).refs).toBe('(no repository)');
    const j = await runMain(ws, ['import', 'nofile', '--markdown', join(ws.root, 'missing.md'), '--why', 'x', '--json']);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stdout).error.code).toBe('USAGE');
  });

  it('refuses a missing --markdown as a usage error (exit 2)', async () => {
    const r = await runMain(tempWorkspace(), ['import', 'x', '--why', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^canvas: USAGE: /);
  });

  it('refuses an existing canvas with CANVAS_EXISTS (exit 2) and leaves the repository unchanged', async () => {
    const ws = tempWorkspace();
    expect((await runMain(ws, ['create', 'taken', '--why', 'there first'])).code).toBe(0);
    const before = repoState(ws);
    const r = await runMain(ws, ['import', 'taken', '--markdown', markdownFile(), '--why', 'start from the written record']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^canvas: CANVAS_EXISTS: /);
    expect(r.stdout).toBe('');
    expect(repoState(ws)).toEqual(before);
  });

  it('refuses a missing reason (BAD_REASON) and an idempotency key (USAGE), writing nothing', async () => {
    const ws = tempWorkspace();
    const noWhy = await runMain(ws, ['import', 'a', '--markdown', markdownFile()]);
    expect(noWhy.code).toBe(2);
    expect(noWhy.stderr).toMatch(/^canvas: BAD_REASON: /);
    const key = await runMain(ws, ['import', 'a', '--markdown', markdownFile(), '--why', 'x', '--idempotency-key', 'k1']);
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/^canvas: USAGE: /);
    expect(repoState(ws).refs).toBe('(no repository)');
  });

  it('refuses a file the schema cannot hold with IMPORT_FAILED (exit 2) naming the line, writing nothing', async () => {
    const ws = tempWorkspace();
    const r = await runMain(ws, ['import', 'bad', '--markdown', markdownFile('# T\n\nok\n\nbad \uFFFF here\n', 'bad.md'), '--why', 'x', '--json']);
    expect(r.code).toBe(2);
    const err = JSON.parse(r.stdout).error;
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.data).toMatchObject({ line: 5, kind: 'paragraph' });
    expect(repoState(ws).refs).toBe('(no repository)');
  });
});
