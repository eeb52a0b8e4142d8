// canvas serve with a shared remote (docs/serve.md, "A shared remote"): the server syncs on its
// timer, so a change another machine pushed reaches the open page's event stream and the page; a
// remote that cannot be reached is said on the stream, and so is its return. Two workspaces stand
// for two machines sharing a bare repository on a path.
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { openCanvas } from '../../src/store/write/canvas-lifecycle.js';
import { insertNode, replaceNode } from '../../src/store/write/node-writes.js';
import { setRemote } from '../../src/store/remote/set-remote.js';
import { syncWorkspace } from '../../src/store/remote/sync-workspace.js';
import { type RunningServer, serveCanvas } from '../../src/serve/serve-canvas.js';
import { AUTHOR, tempWorkspace } from '../helpers/workspace.js';
import { eventStream, rawRequest, TOKEN } from './serve-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const inBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function applied<T extends { outcome: string }>(o: T): T & { revision: string; node?: string } {
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o as T & { revision: string };
}

/** A bare repository on a path, and a workspace `here` with canvas `plan` pushed to it. */
async function sharedPlan(): Promise<{ url: string; here: ReturnType<typeof tempWorkspace>; text: { node?: string; revision: string } }> {
  const url = join(tempDir('canvas-serve-remote-'), 'shared.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', url]);
  const here = tempWorkspace('canvas-serve-here-');
  await setRemote(here, url);
  const o = applied(await openCanvas(here, { ledger: 'plan', problem: 'Two machines.', expectedValue: 'One page.', why: 'the plan', author: AUTHOR }));
  const text = applied(await insertNode(here, { ledger: 'plan', into: 'root', payload: { text: 'written here' }, base: o.revision, why: 'a first step', author: AUTHOR }));
  return { url, here, text };
}

describe('canvas serve with a shared remote', () => {
  it('syncs on its timer: another machine’s push reaches the open page; a lost remote is said, and its return', async () => {
    const { url, here, text: t } = await sharedPlan();
    const there = tempWorkspace('canvas-serve-there-');
    await setRemote(there, url);
    await syncWorkspace(there);

    const server = await serveCanvas(here, { port: 0, author: AUTHOR, token: TOKEN, rescanMs: 60_000, syncEveryMs: 100 });
    servers.push(server);
    const cookie = `canvas-token-${server.port}=${TOKEN}`;
    const page = async () => (await rawRequest(server.port, 'GET', '/plan/', { host: `127.0.0.1:${server.port}`, cookie })).body;
    const events = await eventStream(server, cookie);
    expect(await events.next('hello')).toEqual({ plan: t.revision });

    // The other machine writes; its write is pushed to the remote; this server's sync follows it.
    const w = applied(await replaceNode(there, { ledger: 'plan', node: t.node!, payload: { text: 'written on the other machine' }, base: t.revision, why: 'the other machine has its say', author: AUTHOR }));
    expect(await events.next('change')).toEqual([{ ledger: 'plan', from: t.revision, to: w.revision }]);
    expect(await page()).toContain('written on the other machine');

    // The remote goes away: the stream says the sync fails, with the code; it comes back: said too.
    // (A sync the rename cuts short may fail otherwise first: the next one is unreachable.)
    const until = async (error: string | null) => {
      for (;;) {
        const state = (await events.next('remote')) as { url: string; error: string | null };
        expect(state.url).toBe(url);
        if (state.error === error) return;
      }
    };
    renameSync(url, `${url}.away`);
    await until('REMOTE_UNREACHABLE');
    renameSync(`${url}.away`, url);
    await until(null);
    const again = applied(await replaceNode(there, { ledger: 'plan', node: t.node!, payload: { text: 'and again' }, base: w.revision, why: 'after the remote came back', author: AUTHOR }));
    expect(await events.next('change')).toEqual([{ ledger: 'plan', from: w.revision, to: again.revision }]);
    expect(await page()).toContain('and again');
    events.close();
  });

  it.runIf(inBrowser)('the page’s status line says when the remote cannot be reached, and stops saying it when it can', async () => {
    const { url, here } = await sharedPlan();
    const server = await serveCanvas(here, { port: 0, author: AUTHOR, token: TOKEN, rescanMs: 60_000, syncEveryMs: 100 });
    servers.push(server);
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    try {
      const c = await browser.newContext();
      await c.route('**/*', (route) => (route.request().url().startsWith(server.origin) ? route.continue() : route.abort('internetdisconnected')));
      const p = await c.newPage();
      await p.goto(server.url);
      await p.goto(`${server.origin}/plan/`);
      await p.waitForSelector('#live-status[data-state="live"]');
      renameSync(url, `${url}.away`);
      await p.waitForFunction(() => document.querySelector('#live-status')?.textContent?.includes('(REMOTE_UNREACHABLE)'));
      expect(await p.locator('#live-status').textContent()).toMatch(
        /^Live: this page shows revision [0-9a-f]{7}, the canvas's latest\. Not synced with the shared remote since .+ \(REMOTE_UNREACHABLE\): another machine's changes may be missing\.$/,
      );
      renameSync(`${url}.away`, url);
      await p.waitForSelector('#live-status[data-remote="synced"]');
      expect(await p.locator('#live-status').textContent()).toMatch(/^Live: this page shows revision [0-9a-f]{7}, the canvas's latest\.$/);
    } finally {
      await browser.close();
    }
  });
});
