import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { tempWorkspace } from '../helpers/workspace.js';
import { pushedCanvases, siteTree } from './site-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

// canvas build --from <url|path> [--at <sha>] (docs/remote.md, "CI from the remote"): the site of a
// bare repository, with no workspace, equals the site of a workspace at the same revision.

describe('canvas build --from', () => {
  it('builds a bare repository at its main and at an older commit, byte for byte as a workspace does', async () => {
    const dir = tempDir('canvas-build-from-');
    const { bare, ws, older } = await pushedCanvases(dir, 'site-a', 'site-b');

    const fromWorkspace = join(dir, 'from-workspace');
    const fromRemote = join(dir, 'from-remote');
    expect((await runMain(ws, ['build', '--out', fromWorkspace])).code).toBe(0);
    const built = await runMain(null, ['build', '--from', bare, '--out', fromRemote, '--json'], { CANVAS_WORKSPACE: '' });
    expect(built.code, built.stderr).toBe(0);
    expect(JSON.parse(built.stdout).built.sort()).toEqual(['site-a', 'site-b']);
    expect(siteTree(fromRemote)).toEqual(siteTree(fromWorkspace));

    // --at: the site as main stood before site-b; a workspace read at that commit agrees.
    const atRemote = join(dir, 'at-remote');
    const at = await runMain(null, ['build', '--from', bare, '--at', older.slice(0, 12), '--out', atRemote, '--json'], { CANVAS_WORKSPACE: '' });
    expect(at.code, at.stderr).toBe(0);
    expect(JSON.parse(at.stdout).built).toEqual(['site-a']);
    expect(existsSync(join(atRemote, 'site-b'))).toBe(false);
    expect(readFileSync(join(atRemote, 'site-a', 'index.html'), 'latin1')).toBe(readFileSync(join(fromWorkspace, 'site-a', 'index.html'), 'latin1'));
  });

  it('refuses an --at that is not on the remote main, a remote with nothing, and --at without --from; nothing is built', async () => {
    const dir = tempDir('canvas-build-from-');
    const bare = join(dir, 'empty.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const none = await runMain(null, ['build', '--from', bare, '--out', join(dir, 'out'), '--json'], { CANVAS_WORKSPACE: '' });
    expect(JSON.parse(none.stdout).error.code).toBe('NO_CANVAS_FOUND');
    const gone = await runMain(null, ['build', '--from', 'git://127.0.0.1:9/none.git', '--out', join(dir, 'out'), '--json'], { CANVAS_WORKSPACE: '' });
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stdout).error.code).toBe('REMOTE_UNREACHABLE');
    const ws = tempWorkspace();
    await runMain(ws, ['remote', 'set', bare]);
    await runMain(ws, ['create', 'one', '--why', 'a canvas']);
    const bad = await runMain(null, ['build', '--from', bare, '--at', 'deadbeef', '--out', join(dir, 'out'), '--json'], { CANVAS_WORKSPACE: '' });
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.code).toBe('USAGE');
    const lone = await runMain(ws, ['build', '--at', 'deadbeef', '--out', join(dir, 'out'), '--json']);
    expect(JSON.parse(lone.stdout).error.code).toBe('USAGE');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
