import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli, tempWorkspace } from '../helpers/workspace.js';

/**
 * An INTERNAL error (docs/errors.md) prints its message and hint, and its stack trace only when
 * CANVAS_DEBUG=1 asks for it. The fault here: a commit that looks like the store's put an access
 * file that is not JSON on main, and `canvas access` cannot parse it.
 */
async function brokenAccess() {
  const ws = tempWorkspace();
  await runCli(ws, ['create', 'c', '--why', 'internal errors']);
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8', input }).trim();
  const main = git(['rev-parse', 'main']);
  const blob = git(['hash-object', '-w', '--stdin'], '{ not json');
  const access = git(['mktree'], `100644 blob ${blob}\tc.json\n`);
  const tree = git(['mktree'], `040000 tree ${access}\taccess\n100644 blob ${git(['rev-parse', 'main:c.xml'])}\tc.xml\n`);
  const message = `grant: by hand\n\nCanvas-Op: grant\nCanvas-Ledger: c\nCanvas-Author: leo\nCanvas-Previous: ${main}\nCanvas-Grant: ada viewer\n`;
  const commit = git(['-c', 'user.name=leo', '-c', 'user.email=', 'commit-tree', tree, '-p', main, '-F', '-'], message);
  git(['update-ref', 'refs/heads/main', commit, main]);
  git(['update-ref', 'refs/canvas/c', commit, main]);
  return ws;
}

describe('INTERNAL errors on the command line', () => {
  it('print no stack trace by default', async () => {
    const ws = await brokenAccess();
    const r = await runCli(ws, ['access', 'c']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^canvas: INTERNAL: /);
    expect(r.stderr).toMatch(/CANVAS_DEBUG=1/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const json = await runCli(ws, ['access', 'c', '--json']);
    expect(JSON.parse(json.stdout).error.code).toBe('INTERNAL');
    expect(JSON.parse(json.stdout).error.message).not.toMatch(/\n\s+at /);
  });

  it('print the stack trace with CANVAS_DEBUG=1', async () => {
    const ws = await brokenAccess();
    const r = await runCli(ws, ['access', 'c'], { CANVAS_DEBUG: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^canvas: INTERNAL: [^\n]*\n\s+at /);
  });
});
