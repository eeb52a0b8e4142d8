// The private files a killed `canvas build`, `render -o` and `build --from` leave are removed by
// the next run, by the store's rule: their process gone and an hour old (docs/store.md,
// "Temporary files"; docs/site.md, "Where the build writes"; docs/cli.md, "render";
// docs/remote.md, "CI from the remote").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { baseOf, runCli } from '../helpers/workspace.js';
import { pushedCanvases } from '../site/site-fixture.js';

/** A pid no process has: one that ran and ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

/** Make a file (or, with `folder`, a folder holding one), last changed `hours` ago. */
function leftover(path: string, hours: number, folder = false): string {
  if (folder) {
    mkdirSync(path);
    writeFileSync(join(path, 'HEAD'), 'ref: refs/heads/main\n');
  } else writeFileSync(path, 'half written');
  const at = Date.now() / 1000 - hours * 3600;
  utimesSync(path, at, at);
  return path;
}

describe('what a killed run left is removed by the next one', () => {
  it('build --from, render -o and build each remove their own abandoned private files, and keep a young one, a live one and another file', async () => {
    const dead = deadPid();
    const dir = tempDir('canvas-abandoned-');
    const { bare, ws } = await pushedCanvases(dir, 'site-a', 'site-b');

    // build --from: its private copies in the temporary directory.
    const copies = {
      abandoned: leftover(join(tmpdir(), `canvas-from-${dead}-abcdef`), 2, true),
      young: leftover(join(tmpdir(), `canvas-from-${dead}-ghijkl`), 0, true),
      live: leftover(join(tmpdir(), `canvas-from-${process.pid}-mnopqr`), 2, true),
    };
    const built = await runMain(null, ['build', '--from', bare, '--out', join(dir, 'from')], { CANVAS_WORKSPACE: '' });
    expect(built.code, built.stderr).toBe(0);
    expect(existsSync(copies.abandoned)).toBe(false);
    expect(existsSync(copies.young)).toBe(true);
    expect(existsSync(copies.live)).toBe(true);
    rmSync(copies.young, { recursive: true });
    rmSync(copies.live, { recursive: true });

    // render -o: beside the file, only the file's own.
    const page = join(dir, 'page.html');
    const renders = {
      abandoned: leftover(join(dir, `.page.html.${dead}.0a1b2c3d.tmp`), 2),
      young: leftover(join(dir, `.page.html.${dead}.0a1b2c3e.tmp`), 0),
      other: leftover(join(dir, `.notes.html.${dead}.0a1b2c3d.tmp`), 2),
    };
    expect((await runMain(ws, ['render', 'site-a', '-o', page])).code).toBe(0);
    expect(existsSync(renders.abandoned)).toBe(false);
    expect(existsSync(renders.young)).toBe(true);
    expect(existsSync(renders.other)).toBe(true);

    // build: in each folder it writes in.
    const out = join(dir, 'site');
    expect((await runMain(ws, ['build', '--out', out])).code).toBe(0);
    const site = {
      root: leftover(join(out, `.index.html.${dead}.0a1b2c3d0.tmp`), 2),
      canvas: leftover(join(out, 'site-a', `.index.html.${dead}.0a1b2c3d5.tmp`), 2),
      young: leftover(join(out, 'site-a', `.comment.md.${dead}.0a1b2c3d6.tmp`), 0),
    };
    const read = await runMain(ws, ['read', 'site-a']);
    expect((await runMain(ws, ['insert', 'site-a', '--into', 'root', '--text', 'more', '--base', baseOf(read.stdout), '--why', 'a change to build'])).code).toBe(0);
    // The next build is another process, as a killed build's next one is.
    const again = await runCli(ws, ['build', '--out', out]);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(site.root)).toBe(false);
    expect(existsSync(site.canvas)).toBe(false);
    expect(existsSync(site.young)).toBe(true);
  });
});
