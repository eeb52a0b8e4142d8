import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createCanvas, insertNode, readCanvas } from '../../../src/index.js';
import type { Applied } from '../../../src/store/repo/outcome.js';
import { readCanvasText } from '../../../src/store/read/read-canvas-text.js';
import { AUTHOR, runCli, tempWorkspace } from '../../helpers/workspace.js';

// git's replace refs (`git replace <object> <other>`) make git answer a read of one object with
// another's bytes under the first one's name: `git cat-file --batch` names the blob the tree
// holds and sends the replacement. The store reads objects as they are (docs/store.md, "Git's
// environment"), so what a read prints is the blob its name hashes, the one the write checked.
describe('replaced objects', () => {
  it('a plain read prints the bytes the store wrote, never the replacement of their blob', async () => {
    const ws = tempWorkspace('canvas-replaced-');
    const git = (args: string[], input?: string): string => execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8', input }).trim();
    expect((await createCanvas(ws, { ledger: 'k', why: 'a canvas', author: AUTHOR })).outcome).toBe('applied');
    const base = (await readCanvas(ws, { ledger: 'k' })).revision;
    const node = ((await insertNode(ws, { ledger: 'k', into: 'root', payload: { text: 'Plain.' }, base, why: 'a node', author: AUTHOR })) as Applied).node!;
    const written = await readCanvasText(ws, { ledger: 'k' });
    const blob = git(['rev-parse', 'refs/heads/main:k.xml']);
    const bad = git(['hash-object', '-w', '--stdin'], `<canvas ledger="k" schema="2">\n  <script id="${node}" v="1">alert(1)</script>\n</canvas>\n`);
    git(['replace', blob, bad]);
    // git itself now shows the replacement under the blob's name.
    expect(git(['cat-file', 'blob', blob])).toContain('<script');

    // A process of its own: this one's shared git process read the replace refs when it started.
    const r = await runCli(ws, ['read', 'k']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Canvas-Base: ${written.revision}\n${written.xml}`);
    // The checked read sees the same bytes.
    const json = await runCli(ws, ['read', 'k', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { xml: string }).xml).toBe(written.xml);
  });
});
