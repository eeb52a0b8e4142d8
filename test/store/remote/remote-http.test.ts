// The shared remote as hosted git serves it (docs/remote.md, "Credentials"): git's own smart HTTP
// (`git http-backend`) behind a loopback server with basic authentication.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRemote } from '../../../src/store/remote/set-remote.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { type GitHttpServer, startGitHttpServer } from '../../helpers/git-http-server.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { baseOf, type CliResult, repoState, runCli, tempWorkspace } from '../../helpers/workspace.js';

const USER = 'ana';
const SECRET = 's3cret-Pa55-hunter2';

let server: GitHttpServer;

beforeAll(async () => {
  server = await startGitHttpServer({ user: USER, password: SECRET });
});

afterAll(async () => {
  await server.close();
});

/** Every stdout and stderr the tests saw, to check that no credential was ever printed. */
const printed: string[] = [];

async function cli(ws: Workspace | null, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const r = await runCli(ws, args, env);
  printed.push(r.stdout, r.stderr);
  return r;
}

function withCredential(url: string, password = SECRET): string {
  return url.replace('http://', `http://${USER}:${password}@`);
}

const TOKEN = { CANVAS_REMOTE_TOKEN: SECRET, CANVAS_REMOTE_USER: USER };

describe('a shared remote over git smart HTTP with basic authentication', () => {
  it('set, clone, write from two workspaces, a stale write across them refused, build --from the URL; the credential never printed', async () => {
    const url = server.bare('team');
    const a = tempWorkspace();
    const b = tempWorkspace();
    // A: the credential in the URL, printed masked.
    const set = await cli(a, ['remote', 'set', withCredential(url), '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ url: url.replace('http://', `http://${USER}:***@`) });
    expect((await cli(a, ['remote', 'show'])).stdout).toContain(`http://${USER}:***@127.0.0.1`);
    expect(await setRemote(a, withCredential(url))).toBe(url.replace('http://', `http://${USER}:***@`));
    expect((await cli(a, ['create', 'plan', '--why', 'a shared plan'])).code).toBe(0);
    const first = await cli(a, ['insert', 'plan', '--into', 'root', '--text', 'First.', '--base', baseOf((await cli(a, ['read', 'plan'])).stdout), '--why', 'the first line', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const node = JSON.parse(first.stdout).node as string;
    const staleBase = JSON.parse(first.stdout).revision as string;
    // B: a clone, the token in the environment and no credential in the URL.
    expect((await cli(b, ['remote', 'set', url], TOKEN)).code).toBe(0);
    const sync = await cli(b, ['sync', '--json'], TOKEN);
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ followed: true, main: staleBase });
    const readB = await cli(b, ['read', 'plan']);
    expect(readB.stdout).toContain('First.');
    const fromB = await cli(b, ['replace', 'plan', node, '--text', 'First, from B.', '--base', baseOf(readB.stdout), '--why', 'B decides'], TOKEN);
    expect(fromB.code, fromB.stderr).toBe(0);
    // A writes the same node against the base it had: refused across the two workspaces.
    const stale = await cli(a, ['replace', 'plan', node, '--text', 'First, from A.', '--base', staleBase, '--why', 'A decides too', '--json']);
    expect(stale.code, stale.stderr).toBe(3);
    expect(JSON.parse(stale.stdout)).toMatchObject({ outcome: 'conflict', code: 'STALE_BASE', node });
    // A followed the remote to B's edit, and wrote nothing of its own.
    const readA = (await cli(a, ['read', 'plan'])).stdout;
    expect(readA).toContain('First, from B.');
    expect(readA).not.toContain('from A');
    // CI builds the site straight from the URL, with the credential in it or in the environment.
    for (const [from, env] of [
      [withCredential(url), {}],
      [url, TOKEN],
    ] as const) {
      const out = join(tempDir('canvas-site-'), 'site');
      const built = await cli(null, ['build', '--from', from, '--out', out], env);
      expect(built.code, built.stderr).toBe(0);
      expect(readFileSync(join(out, 'plan', 'index.html'), 'utf8')).toContain('First, from B.');
    }
    expect(printed.join('\n')).not.toContain(SECRET);
  });

  it('a missing or wrong credential is REMOTE_AUTH at once, never a prompt, and nothing is set or written; an unreachable server is REMOTE_UNREACHABLE', async () => {
    const url = server.bare('locked');
    const ws = tempWorkspace();
    // An askpass program that would say it was asked: it must never run.
    const marker = join(tempDir('canvas-askpass-'), 'asked');
    const askpass = join(tempDir('canvas-askpass-'), 'askpass.sh');
    writeFileSync(askpass, `#!/bin/sh\ntouch ${marker}\necho ${SECRET}\n`);
    chmodSync(askpass, 0o755);
    const prompting = { GIT_ASKPASS: askpass, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' };
    const refusedBefore = server.refused();
    for (const [given, env] of [
      [url, prompting],
      [withCredential(url, 'wrong-password'), prompting],
      [url, { ...TOKEN, CANVAS_REMOTE_TOKEN: 'wrong-token' }],
    ] as const) {
      const r = await cli(ws, ['remote', 'set', given, '--json'], env);
      expect(r.code, r.stderr).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error).toMatchObject({ code: 'REMOTE_AUTH' });
      expect(r.stdout).not.toContain('wrong-password');
      expect(r.stdout).not.toContain('wrong-token');
    }
    expect(server.refused()).toBeGreaterThan(refusedBefore);
    expect(existsSync(marker)).toBe(false);
    expect((await cli(ws, ['remote', 'show', '--json'])).stdout).toContain('NO_REMOTE');
    // A workspace whose remote takes the token: a write without it is REMOTE_AUTH, nothing written here.
    expect((await cli(ws, ['remote', 'set', url], TOKEN)).code).toBe(0);
    expect((await cli(ws, ['create', 'plan', '--why', 'with the token'], TOKEN)).code).toBe(0);
    const before = repoState(ws);
    const w = await cli(ws, ['freeze', 'plan', '--why', 'without it', '--json'], prompting);
    expect(w.code).toBe(2);
    expect(JSON.parse(w.stdout)).toMatchObject({ outcome: 'rejected', code: 'REMOTE_AUTH' });
    expect(repoState(ws)).toEqual(before);
    expect(existsSync(marker)).toBe(false);
    // A server that is not there.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const down = await cli(tempWorkspace(), ['remote', 'set', `http://${USER}:${SECRET}@127.0.0.1:${port}/x.git`, '--json']);
    expect(down.code).toBe(1);
    expect(JSON.parse(down.stdout).error).toMatchObject({ code: 'REMOTE_UNREACHABLE' });
    expect(printed.join('\n')).not.toContain(SECRET);
  });
});
