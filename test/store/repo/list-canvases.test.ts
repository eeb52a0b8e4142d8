// A process that lists the canvases again keeps its last listing while the files the refs live in
// keep their stamp (docs/store.md, "Canvas refs"): every change of a ref is seen by the next list,
// however recent, and a listing is never a stale one.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCanvas, openCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { listCanvases } from '../../../src/store/repo/list-canvases.js';
import { replaceNode } from '../../../src/store/write/node-writes.js';
import type { Outcome } from '../../../src/store/repo/outcome.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { bundleScript } from '../../helpers/bundle-script.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { AUTHOR, tempWorkspace } from '../../helpers/workspace.js';

function applied(o: Outcome): { revision: string; nodes?: string[] } {
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o;
}

/** Put the files the refs live in a minute back, as if nothing had moved them for that long. */
function backdate(ws: Workspace): void {
  const then = new Date(Date.now() - 60_000);
  for (const p of [['refs', 'canvas'], ['refs', 'heads'], ['packed-refs'], ['canvas-cache', '_refs-main']]) {
    const path = join(ws.repo, '.git', ...p);
    if (existsSync(path)) utimesSync(path, then, then);
  }
}

describe('listCanvases in a long-lived process', () => {
  it('lists again from its last listing while no ref moved, and sees every ref that moved, at once', async () => {
    const ws = tempWorkspace('canvas-list-again-');
    const a = applied(await openCanvas(ws, { ledger: 'a', problem: 'One.', expectedValue: 'Known.', why: 'opened', author: AUTHOR }));
    applied(await createCanvas(ws, { ledger: 'b', why: 'a second canvas', author: AUTHOR }));
    backdate(ws);
    const first = await listCanvases(ws);
    expect(first.map((c) => c.ledger)).toEqual(['a', 'b']);
    // A copy each time: what a caller does with a listing does not change the next.
    first[0]!.revision = 'changed by the caller';
    // No git process for it: a git on PATH that notes each run of it notes none.
    const bin = tempDir('canvas-git-log-');
    const noted = join(bin, 'runs');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> ${noted}\nexec ${real} "$@"\n`, { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    let again: Awaited<ReturnType<typeof listCanvases>>;
    try {
      again = await listCanvases(ws);
    } finally {
      process.env.PATH = path;
    }
    expect(existsSync(noted) ? readFileSync(noted, 'utf8') : '').toBe('');
    expect(again.map((c) => c.revision)).toEqual([a.revision, expect.stringMatching(/^[0-9a-f]{40}$/)]);
    // A write moves two refs: the next list sees it, within the same second.
    const r = applied(await replaceNode(ws, { ledger: 'a', node: a.nodes![0]!, payload: { text: 'Two.' }, base: a.revision, why: 'moved on', author: AUTHOR }));
    expect((await listCanvases(ws)).find((c) => c.ledger === 'a')!.revision).toBe(r.revision);
    // So does a canvas made since, and refs packed by hand.
    backdate(ws);
    await listCanvases(ws);
    applied(await createCanvas(ws, { ledger: 'c', why: 'a third canvas', author: AUTHOR }));
    expect((await listCanvases(ws)).map((c) => c.ledger)).toEqual(['a', 'b', 'c']);
    backdate(ws);
    await listCanvases(ws);
    execFileSync('git', ['pack-refs', '--all'], { cwd: ws.repo });
    expect((await listCanvases(ws)).map((c) => c.ledger)).toEqual(['a', 'b', 'c']);
  });

  it('another process lists from the listing saved with the same stamp, with no git process; a moved ref makes it list afresh', async () => {
    const ws = tempWorkspace('canvas-list-saved-');
    const a = applied(await openCanvas(ws, { ledger: 'a', problem: 'One.', expectedValue: 'Known.', why: 'opened', author: AUTHOR }));
    applied(await createCanvas(ws, { ledger: 'b', why: 'a second canvas', author: AUTHOR }));
    backdate(ws);
    const listed = (await listCanvases(ws)).map((c) => `${c.ledger} ${c.revision}\n`).join('');
    const script = await bundleScript('test/store/fixtures/list-once.ts');
    const bin = tempDir('canvas-git-log-');
    const noted = join(bin, 'runs');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> ${noted}\nexec ${real} "$@"\n`, { mode: 0o755 });
    const list = () => execFileSync(process.execPath, [script.path, ws.root], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    try {
      expect(list()).toBe(listed);
      expect(existsSync(noted) ? readFileSync(noted, 'utf8') : '').toBe('');
      // A write moves the refs: the next process lists with git, and sees it.
      const r = applied(await replaceNode(ws, { ledger: 'a', node: a.nodes![0]!, payload: { text: 'Two.' }, base: a.revision, why: 'moved on', author: AUTHOR }));
      expect(list()).toContain(`a ${r.revision}\n`);
      expect(readFileSync(noted, 'utf8')).toContain('for-each-ref');
      // A saved listing that does not read as one is only a cache: listed afresh.
      backdate(ws);
      writeFileSync(join(ws.repo, '.git', 'canvas-cache', '_list.json'), '{"stamp":');
      expect(list()).toContain(`a ${r.revision}\n`);
    } finally {
      script.remove();
    }
  });
});
