import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESERVED_LEDGER_IDS } from '../../src/model/check-ledger-id.js';
import { createCanvas, openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { runMain } from '../helpers/run-main.js';
import { AUTHOR, repoState, tempWorkspace } from '../helpers/workspace.js';
import { tempDir } from '../helpers/temp-dir.js';

// docs/site.md "Reserved ledger ids": the site keeps its URLs (DIR/<ledger>/index.html beside
// DIR/index.html), so the ledger ids that would collide with the site's own files are reserved.

function allFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return lstatSync(p).isDirectory() ? allFiles(p, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

describe('ledger ids the site reserves', () => {
  it('index.html is reserved', () => {
    expect(RESERVED_LEDGER_IDS).toEqual(['index.html']);
  });

  it('create, open and import of index.html are refused (BAD_LEDGER_ID), writing nothing', async () => {
    const ws = tempWorkspace();
    expect(await createCanvas(ws, { ledger: 'index.html', why: 'collide', author: AUTHOR })).toMatchObject({
      outcome: 'rejected',
      code: 'BAD_LEDGER_ID',
      data: { rule: 'reserved' },
    });
    expect(repoState(ws).refs).toBe('(no repository)');
    await createCanvas(ws, { ledger: 't1', why: 'a canvas', author: AUTHOR });
    const before = repoState(ws);
    expect(await openCanvas(ws, { ledger: 'index.html', problem: 'p', expectedValue: 'e', why: 'collide', author: AUTHOR })).toMatchObject({
      code: 'BAD_LEDGER_ID',
    });
    const md = join(ws.root, 'doc.md');
    writeFileSync(md, '# A title\n\nA paragraph.\n');
    const r = await runMain(ws, ['import', 'index.html', '--markdown', md, '--why', 'collide', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('BAD_LEDGER_ID');
    const c = await runMain(ws, ['create', 'index.html', '--why', 'collide', '--json']);
    expect(c.code).toBe(2);
    expect(JSON.parse(c.stdout).code).toBe('BAD_LEDGER_ID');
    expect(repoState(ws)).toEqual(before);
  });

  it('a canvas index.html made before the reservation fails alone: the rest is built, no temporary file is left', async () => {
    const ws = tempWorkspace();
    await createCanvas(ws, { ledger: 't1', why: 'a canvas', author: AUTHOR });
    const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: ws.repo, input, encoding: 'utf8' }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], '<canvas ledger="index.html" schema="2"></canvas>\n');
    const tree = git(['mktree'], `100644 blob ${blob}\tindex.html.xml\n`);
    const commit = git(['-c', 'user.name=x', '-c', 'user.email=x@y', 'commit-tree', tree, '-m', 'create: old\n\nCanvas-Op: create\nCanvas-Ledger: index.html\nCanvas-Author: leo']);
    git(['update-ref', 'refs/canvas/index.html', commit]);
    const out = join(tempDir('canvas-out-'), 'site');
    for (let run = 0; run < 2; run++) {
      const r = await runMain(ws, ['build', '--out', out, '--json']);
      expect(r.code, r.stderr).toBe(8);
      const report = JSON.parse(r.stdout) as { built: string[]; unchanged: string[]; failed: Array<{ ledger: string; code: string }> };
      expect(report.failed).toEqual([expect.objectContaining({ ledger: 'index.html', code: 'BAD_LEDGER_ID' })]);
      expect([...report.built, ...report.unchanged]).toEqual(['t1']);
      expect(lstatSync(join(out, 'index.html')).isFile()).toBe(true);
      expect(allFiles(out).sort()).toEqual(['.canvas-build.json', 'index.html', 't1/comment.md', 't1/index.html', 't1/prompt.txt']);
    }
  });
});
