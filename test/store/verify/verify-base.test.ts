// The `base` rule of `canvas verify` (docs/store.md, "Verify"): an edit's Canvas-Base is a
// revision of its own canvas, except in the history written before the store required it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCommitMessage } from '../../../src/store/repo/canvas-commit.js';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import type { Applied } from '../../../src/store/repo/outcome.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

function git(ws: Workspace, args: string[], input?: string, env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8', input, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...env } }).trim();
}

function applied(o: unknown): Applied {
  expect(o).toMatchObject({ outcome: 'applied' });
  return o as Applied;
}

/**
 * Canvases x and y, then an edit of x whose Canvas-Base is y's revision, made with plain git in
 * the store's own format (as the write path once accepted: any earlier commit on main).
 */
async function foreignBaseEdit(): Promise<{ ws: Workspace; edit: string }> {
  const ws = tempWorkspace();
  const x0 = applied(await createCanvas(ws, { ledger: 'x', why: 'the canvas', author: AUTHOR }));
  const x1 = applied(await insertNode(ws, { ledger: 'x', into: 'root', payload: { text: 'Draft.' }, base: x0.revision, why: 'a draft', author: AUTHOR }));
  const y0 = applied(await createCanvas(ws, { ledger: 'y', why: 'another canvas', author: AUTHOR }));
  const main = git(ws, ['rev-parse', 'refs/heads/main']);
  const xml = git(ws, ['show', `${main}:x.xml`]).replace(/<text id="([a-z0-9]+)" v="1">Draft\.<\/text>/, '<text id="$1" v="2">Second.</text>');
  const blob = git(ws, ['hash-object', '-w', '--stdin'], `${xml}\n`);
  const index = join(ws.root, 'forge-index');
  git(ws, ['read-tree', main], undefined, { GIT_INDEX_FILE: index });
  git(ws, ['update-index', '--cacheinfo', `100644,${blob},x.xml`], undefined, { GIT_INDEX_FILE: index });
  const tree = git(ws, ['write-tree'], undefined, { GIT_INDEX_FILE: index });
  const msg = formatCommitMessage('replace', x1.node!, 'second', {
    'Canvas-Op': 'replace',
    'Canvas-Ledger': 'x',
    'Canvas-Node': x1.node!,
    'Canvas-Author': AUTHOR,
    'Canvas-Base': y0.revision,
    'Canvas-Previous': x1.revision,
  });
  const edit = git(ws, ['commit-tree', tree, '-p', main, '-F', '-'], msg, { GIT_AUTHOR_NAME: AUTHOR, GIT_AUTHOR_EMAIL: '', GIT_COMMITTER_NAME: 'canvas', GIT_COMMITTER_EMAIL: '' });
  git(ws, ['update-ref', 'refs/heads/main', edit, main]);
  git(ws, ['update-ref', 'refs/canvas/x', edit]);
  writeFileSync(join(ws.repo, 'x.xml'), `${xml}\n`);
  return { ws, edit };
}

describe('verify: a base that is not a revision of its canvas (docs/store.md, "Verify")', () => {
  it('reports an edit of x against y\'s revision in a repository the store made (rule base, FOREIGN_BASE)', async () => {
    const { ws, edit } = await foreignBaseEdit();
    expect(git(ws, ['config', '--get', 'canvas.chainBasesSince'])).toBe('root');
    const report = await verifyWorkspace(ws);
    expect(report.ok).toBe(false);
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'base', code: 'FOREIGN_BASE', commit: edit, ledger: 'x' })]);
  });

  it('passes that edit in history written before the rule, and a store write after it', async () => {
    const { ws, edit } = await foreignBaseEdit();
    // A repository made before the rule says nothing; the first verify (or write) records main.
    git(ws, ['config', '--unset', 'canvas.chainBasesSince']);
    const first = await verifyWorkspace(ws);
    expect(first.violations).toEqual([]);
    expect(git(ws, ['config', '--get', 'canvas.chainBasesSince'])).toBe(edit);
    // A write now is checked against the rule; the store's own write passes verify.
    applied(await insertNode(ws, { ledger: 'x', into: 'root', payload: { text: 'Third.' }, base: edit, why: 'a third', author: AUTHOR }));
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});
