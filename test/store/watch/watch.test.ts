import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listCanvasEntries } from '../../../src/store/read/list-canvas-entries.js';
import { listWatchers } from '../../../src/store/watch/list-watchers.js';
import { insertNode } from '../../../src/store/write/node-writes.js';
import { readWatch, watchRoot } from '../../../src/store/watch/watch-files.js';
import { resolveWorkspace, type Workspace } from '../../../src/store/repo/workspace.js';
import { runMain } from '../../helpers/run-main.js';
import { repoState, runCli, tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Watches (docs/store.md, "Watches and the inbox"): kept outside the canvas history, one file per
// watcher and canvas, made by `canvas watch` and by every write.

/** Every file under `.git/canvas-watch/`, with its bytes: what a refusal must leave as it was. */
function watchState(ws: Workspace): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true }).map((d) => (d.isDirectory() ? `${d.name}/` : d.name));
    } catch {
      return;
    }
    for (const n of names) {
      if (n.endsWith('/')) walk(join(dir, n), `${rel}${n}`);
      else out[`${rel}${n}`] = readFileSync(join(dir, n), 'utf8');
    }
  };
  walk(watchRoot(ws), '');
  return out;
}

let template: Workspace;
let revision: string;
let text: string;

function copyOf(): Workspace {
  const dir = tempDir('canvas-watch-');
  cpSync(template.root, dir, { recursive: true });
  return resolveWorkspace({ workspace: dir });
}

async function json(ws: Workspace, args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const r = await runMain(ws, [...args, '--json'], env);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  template = tempWorkspace('canvas-watch-');
  const opened = await json(template, ['open', 'w1', '--problem', 'Logins time out.', '--expected-value', 'p99 under 2 s.', '--why', 'opened'], { CANVAS_AUTHOR: 'leo' });
  await json(template, ['create', 'w2', '--why', 'a second canvas'], { CANVAS_AUTHOR: 'leo' });
  revision = opened.revision as string;
  text = (opened.nodes as string[])[0]!;
});

describe('canvas watch and unwatch', () => {
  it('a write makes its author a watcher, with the cursor at the revision written', async () => {
    const ws = copyOf();
    expect(await listWatchers(ws, 'w1')).toEqual([{ who: 'leo', since: expect.any(String) }]);
    const created = readWatch(ws, 'leo', 'w1')!;
    const w = await json(ws, ['grant', 'w1', 'ana', 'editor', '--why', 'ana edits'], { CANVAS_AUTHOR: 'leo' });
    const r = await insertNode(ws, { ledger: 'w1', after: text, payload: { text: 'The proxy idles out at 30 s.' }, base: w.revision as string, why: 'measured', author: 'ana | step:look' });
    expect(r.outcome).toBe('applied');
    const ana = readWatch(ws, 'ana', 'w1')!;
    expect(ana.cursor).toBe((r as { revision: string }).revision);
    // Leo's watch was there already: a later write of his does not move its cursor.
    await json(ws, ['freeze', 'w1', '--why', 'done'], { CANVAS_AUTHOR: 'leo' });
    expect(readWatch(ws, 'leo', 'w1')).toEqual(created);
    expect((await listWatchers(ws, 'w1')).map((x) => x.who)).toEqual(['ana', 'leo']);
  });

  it('watch, watch again, unwatch; canvas list shows the watchers', async () => {
    const ws = copyOf();
    const first = await json(ws, ['watch', 'w2'], { CANVAS_AUTHOR: 'ana | step:read' });
    expect(first).toMatchObject({ ledger: 'w2', who: 'ana', watching: true, changed: true, watch: { who: 'ana', ledger: 'w2' } });
    expect((first.watch as { cursor: string }).cursor).toBe(readWatch(ws, 'leo', 'w2')!.cursor);
    const again = await json(ws, ['watch', 'w2'], { CANVAS_AUTHOR: 'ana' });
    expect(again).toMatchObject({ changed: false, watch: first.watch });
    const list = await listCanvasEntries(ws);
    expect(list.canvases.map((c) => [c.ledger, c.watchers])).toEqual([
      ['w1', ['leo']],
      ['w2', ['ana', 'leo']],
    ]);
    expect((await runMain(ws, ['list'])).stdout).toContain('  watched by ana, leo\n');
    const text = await runMain(ws, ['unwatch', 'w2'], { CANVAS_AUTHOR: 'ana' });
    expect(text).toMatchObject({ code: 0, stdout: 'ana no longer watches w2\n' });
    expect((await listWatchers(ws, 'w2')).map((x) => x.who)).toEqual(['leo']);
    // The list cache holds entries by revision; the watchers are read afresh.
    expect((await listCanvasEntries(ws)).canvases.map((c) => c.watchers)).toEqual([['leo'], ['leo']]);
  });

  it.each([
    ['unwatch of a canvas not watched', ['unwatch', 'w2'], 'NOT_WATCHING'],
    ['watch of a canvas that does not exist', ['watch', 'nope'], 'CANVAS_NOT_FOUND'],
    ['a ledger id that is not one', ['watch', '../w1'], 'BAD_LEDGER_ID'],
    ['an author written loosely', ['watch', 'w1', '--author', ' ana'], 'BAD_AUTHOR'],
  ])('refuses %s with its code (exit 2) and writes nothing', async (_, args, code) => {
    const ws = copyOf();
    const before = { repo: repoState(ws), watches: watchState(ws) };
    const r = await runMain(ws, [...args, '--json'], { CANVAS_AUTHOR: 'ana' });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe(code);
    expect({ repo: repoState(ws), watches: watchState(ws) }).toEqual(before);
  });

  it('a write whose watch cannot be recorded is applied all the same', async () => {
    const ws = copyOf();
    rmSync(watchRoot(ws), { recursive: true });
    // A file where the folder of watches belongs: no watch can be written.
    writeFileSync(watchRoot(ws), 'not a folder');
    const r = await insertNode(ws, { ledger: 'w1', after: text, payload: { text: 'Still applied.' }, base: revision, why: 'the watch is not the write', author: 'leo' });
    expect(r.outcome).toBe('applied');
    expect(await listWatchers(ws, 'w1')).toEqual([]);
  });

  it('watchers in several processes at once keep every watch', async () => {
    const ws = copyOf();
    // Two whos on one canvas, one who on two canvases, and one who asking twice at once.
    const asks = [
      ['ana', 'w1'],
      ['bo', 'w1'],
      ['ana', 'w2'],
      ['ana', 'w2'],
    ] as const;
    const runs = asks.map(([who, ledger]) => runCli(ws, ['watch', ledger, '--json'], { CANVAS_AUTHOR: who }));
    const results = await Promise.all(runs);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const made = results.map((r) => JSON.parse(r.stdout) as { ledger: string; who: string; changed: boolean });
    // Each (who, canvas) was created by exactly one of the processes that asked for it.
    for (const [who, ledger] of asks) expect(made.filter((m) => m.who === who && m.ledger === ledger && m.changed)).toHaveLength(1);
    expect((await listWatchers(ws, 'w1')).map((x) => x.who)).toEqual(['ana', 'bo', 'leo']);
    expect((await listWatchers(ws, 'w2')).map((x) => x.who)).toEqual(['ana', 'leo']);
  });
});
