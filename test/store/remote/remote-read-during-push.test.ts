import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { setRemote } from '../../../src/store/remote/set-remote.js';
import { runMain } from '../../helpers/run-main.js';
import { AUTHOR, baseOf, runCli, tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

// A remote write holds this machine's repository lock while the remote receives its push
// (docs/remote.md, "Writes"); a read on the same machine must answer without waiting for it,
// even one that finds the canvas refs to check against main (docs/store.md, "Canvas refs").

describe('a read during a remote write held at its push', () => {
  it('answers at once with the canvas as it stands, and the write then lands', async () => {
    const dir = tempDir('canvas-held-push-');
    const bare = join(dir, 'shared.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const ws = tempWorkspace();
    await setRemote(ws, bare);
    const created = await createCanvas(ws, { ledger: 'held', why: 'a canvas on the remote', author: AUTHOR });
    expect(created.outcome).toBe('applied');
    const before = created.outcome === 'applied' ? created.revision : '';
    // The remote holds every push until the test lets it go: the hook says it is there, then
    // waits for a file (no sleep decides anything: the loop only polls for the file).
    const reached = join(dir, 'reached');
    const go = join(dir, 'go');
    const hook = join(bare, 'hooks', 'pre-receive');
    writeFileSync(hook, `#!/bin/sh\ncat >/dev/null\n: > '${reached}'\nwhile [ ! -e '${go}' ]; do sleep 0.02; done\n`);
    chmodSync(hook, 0o755);
    const write = runCli(ws, ['insert', 'held', '--into', 'root', '--text', 'pushed late', '--base', before, '--why', 'a push the remote holds']);
    try {
      while (!existsSync(reached)) await sleep(20);
      expect(existsSync(join(ws.repo, '.git', 'canvas.lock')), 'the write holds the lock through its push').toBe(true);
      // Without the marker the read must check the canvas refs against main: before, that took
      // the lock, and so waited for the whole push.
      rmSync(join(ws.repo, '.git', 'canvas-cache', '_refs-main'), { force: true });
      const read = await runMain(ws, ['read', 'held'], { CANVAS_LOCK_TIMEOUT_MS: '1000' });
      expect(read.code, read.stderr).toBe(0);
      expect(baseOf(read.stdout)).toBe(before);
      expect(read.stdout).not.toContain('pushed late');
      const list = await runMain(ws, ['list', '--json'], { CANVAS_LOCK_TIMEOUT_MS: '1000' });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain(before);
      expect(existsSync(go), 'the push is still held').toBe(false);
    } finally {
      writeFileSync(go, '');
    }
    const done = await write;
    expect(done.code, done.stderr).toBe(0);
    const after = await runMain(ws, ['read', 'held']);
    expect(after.stdout).toContain('pushed late');
    expect(baseOf(after.stdout)).toBe(execFileSync('git', ['-C', bare, 'rev-parse', 'refs/heads/main'], { encoding: 'utf8' }).trim());
  });
});
