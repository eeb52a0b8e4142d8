import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { insertNode, moveNode, replaceNode } from '../../../src/store/write/node-writes.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { verifyWorkspace } from '../../../src/store/verify/verify-workspace.js';
import { AUTHOR, repoState, runCli, tempWorkspace } from '../../helpers/workspace.js';

async function canvas() {
  const ws = tempWorkspace();
  const c = await createCanvas(ws, { ledger: 'k', why: 'caches', author: AUTHOR });
  if (c.outcome !== 'applied') throw new Error(JSON.stringify(c));
  const s = await insertNode(ws, { ledger: 'k', base: c.revision, into: 'root', payload: { section: 'Part' }, why: 'a section', author: AUTHOR });
  if (s.outcome !== 'applied') throw new Error(JSON.stringify(s));
  const t = await insertNode(ws, { ledger: 'k', base: s.revision, into: s.node!, payload: { text: 'inside' }, why: 'a text in it', author: AUTHOR });
  if (t.outcome !== 'applied') throw new Error(JSON.stringify(t));
  return { ws, section: s.node!, text: t.node!, base: t.revision };
}

describe('what a write reads from its caches, and what it reads back', () => {
  it('a text XML cannot hold is refused, and nothing is written', async () => {
    const { ws, base } = await canvas();
    // Refused by the payload's own checks; were one to pass, reading the written node back would
    // refuse it (XML_PARSE) before any ref moves.
    for (const [text, code] of [
      ['a\uFFFEb', 'SCHEMA'],
      ['a\uD800b', 'SCHEMA'],
    ] as const) {
      const before = repoState(ws);
      const o = await insertNode(ws, { ledger: 'k', base, into: 'root', payload: { text }, why: 'odd text', author: AUTHOR });
      expect(o).toMatchObject({ outcome: 'rejected', code });
      expect(repoState(ws)).toEqual(before);
    }
  });

  it('a tree cache that does not match the document is ignored, never trusted', async () => {
    const { ws, text, base } = await canvas();
    const path = join(ws.repo, '.git', 'canvas-cache', 'trees', 'k.json');
    const cache = JSON.parse(readFileSync(path, 'utf8')) as { blob: string; canvas: { children: Array<{ title?: string }> } };
    // Same key, another tree: it does not serialize to the document's bytes.
    cache.canvas.children[0]!.title = 'Tampered';
    writeFileSync(path, JSON.stringify(cache));
    const o = await replaceNode(ws, { ledger: 'k', node: text, base, payload: { text: 'rewritten' }, why: 'after a bad cache', author: AUTHOR });
    expect(o.outcome).toBe('applied');
    const r = await readCanvas(ws, { ledger: 'k' });
    expect(r.xml).toContain('title="Part"');
    expect(r.xml).not.toContain('Tampered');
    // An unreadable cache is the same as none.
    writeFileSync(path, '{"blob":');
    const m = await moveNode(ws, { ledger: 'k', node: text, base: r.revision, into: 'root', why: 'out of the section', author: AUTHOR });
    expect(m.outcome).toBe('applied');
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });

  it('a moved section keeps its subtree, read back and verified', async () => {
    const { ws, section, base } = await canvas();
    const t = await insertNode(ws, { ledger: 'k', base, after: section, payload: { text: 'next at root' }, why: 'a sibling', author: AUTHOR });
    if (t.outcome !== 'applied') throw new Error(JSON.stringify(t));
    const m = await moveNode(ws, { ledger: 'k', node: section, base: t.revision, after: t.node!, why: 'the section goes last', author: AUTHOR });
    expect(m.outcome).toBe('applied');
    const r = await readCanvas(ws, { ledger: 'k' });
    expect(r.canvas.children.map((c) => c.id)).toEqual([t.node, section]);
    expect((await verifyWorkspace(ws)).violations).toEqual([]);
  });
});

describe('the long-lived git processes a process shares', () => {
  it('a refused ref transaction reports git’s message, and the next one runs in a fresh updater', async () => {
    const { ws, base } = await canvas();
    const { RefUpdater } = await import('../../../src/store/git/ref-updater.js');
    const updater = RefUpdater.shared(ws.repo);
    const zero = '0'.repeat(40);
    const refused = await updater.transaction([`update refs/heads/side ${base} ${'1'.repeat(40)}`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/side/);
    const again = await RefUpdater.shared(ws.repo).transaction([`update refs/heads/side ${base} ${zero}`]);
    expect(again).toEqual({ code: 0, stderr: '' });
    const twice = await RefUpdater.shared(ws.repo).transaction([`update refs/heads/side2 ${base} ${zero}`]);
    expect(twice.code).toBe(0);
    const { execFileSync } = await import('node:child_process');
    expect(execFileSync('git', ['rev-parse', 'side', 'side2'], { cwd: ws.repo, encoding: 'utf8' }).trim().split('\n')).toEqual([base, base]);
  });

  it('reads through the shared batch see refs moved by another process', async () => {
    const { ws, text, base } = await canvas();
    expect((await readCanvas(ws, { ledger: 'k' })).revision).toBe(base);
    // The other process is the built CLI, writing as a user would.
    const child = await runCli(ws, ['replace', 'k', text, '--text', 'from another process', '--base', base, '--why', 'elsewhere', '--json']);
    expect(child.code, child.stderr).toBe(0);
    const written = (JSON.parse(child.stdout) as { revision: string }).revision;
    const r = await readCanvas(ws, { ledger: 'k' });
    expect(r.revision).toBe(written);
    expect(r.xml).toContain('from another process');
  });
});

describe('a repository replaced at the same path', () => {
  it('is read and written afresh, never through the git processes of the one it replaced', async () => {
    const first = await canvas();
    const other = await canvas();
    const { cpSync, rmSync } = await import('node:fs');
    // Use the first workspace's processes, then put the other repository at its path.
    expect((await readCanvas(first.ws, { ledger: 'k' })).revision).toBe(first.base);
    rmSync(first.ws.repo, { recursive: true, force: true });
    cpSync(other.ws.repo, first.ws.repo, { recursive: true });
    expect((await readCanvas(first.ws, { ledger: 'k' })).revision).toBe(other.base);
    const o = await replaceNode(first.ws, { ledger: 'k', node: other.text, base: other.base, payload: { text: 'in the copy' }, why: 'after the swap', author: AUTHOR });
    expect(o.outcome).toBe('applied');
    const { execFileSync } = await import('node:child_process');
    expect(execFileSync('git', ['rev-parse', 'main'], { cwd: first.ws.repo, encoding: 'utf8' }).trim()).toBe((o as { revision: string }).revision);
    expect((await verifyWorkspace(first.ws)).violations).toEqual([]);
  });
});
