import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../../../src/store/write/access-writes.js';
import { abandonCanvas, createCanvas, freezeCanvas, openCanvas } from '../../../src/store/write/canvas-lifecycle.js';
import { type CanvasListEntry, listCanvasEntries } from '../../../src/store/read/list-canvas-entries.js';
import { insertNode, replaceNode } from '../../../src/store/write/node-writes.js';
import type { Outcome } from '../../../src/store/repo/outcome.js';
import type { Workspace } from '../../../src/store/repo/workspace.js';
import { runMain } from '../../helpers/run-main.js';
import { tempWorkspace } from '../../helpers/workspace.js';
import { tempDir } from '../../helpers/temp-dir.js';

function applied(o: Outcome): { revision: string; node: string | null; nodes?: string[] } {
  if (o.outcome !== 'applied') throw new Error(JSON.stringify(o));
  return o;
}

const HAND = 'leo | by-hand';
const RUN = 'planner | step:plan | run:r7';

/**
 * A workspace where some canvases were written by runs and some only by hand:
 * a-hand (by hand only), b-run (opened by a run, then edited by hand), c-plain (an author with
 * neither part), d-ended (a run wrote, then a person froze and abandoned it), e-empty (created
 * by hand, no text node).
 */
async function sweepWorkspace(): Promise<{ ws: Workspace; shas: Record<string, string> }> {
  const ws = tempWorkspace('canvas-list-');
  const shas: Record<string, string> = {};
  const a = applied(await openCanvas(ws, { ledger: 'a-hand', problem: 'Logins time out under load.', expectedValue: 'p99 under 2 s.', why: 'opened', author: HAND }));
  const aq = applied(await insertNode(ws, { ledger: 'a-hand', after: a.nodes![1], payload: { question: 'Which pool size?' }, base: a.revision, why: 'open doubt', author: HAND }));
  const as = applied(await insertNode(ws, { ledger: 'a-hand', after: aq.node!, payload: { section: 'Findings' }, base: aq.revision, why: 'a place for findings', author: HAND }));
  const aa = applied(await insertNode(ws, { ledger: 'a-hand', into: as.node!, payload: { question: 'Is the cache warm?', answered: true }, base: as.revision, why: 'checked the cache', author: HAND }));
  shas['a-hand'] = aa.revision;

  const b = applied(await openCanvas(ws, { ledger: 'b-run', problem: 'The nightly export misses rows.', expectedValue: 'Every row exported.', why: 'opened by the plan step', author: RUN }));
  shas['b-run-last-run'] = b.revision;
  applied(await grantRole(ws, { ledger: 'b-run', who: 'leo', role: 'editor', why: 'leo reviews it', author: RUN }));
  shas['b-run-last-run'] = (await listCanvasEntries(ws)).canvases.find((c) => c.ledger === 'b-run')!.revision;
  const bh = applied(
    await replaceNode(ws, { ledger: 'b-run', node: b.nodes![1]!, payload: { text: 'Every row exported, by 02:00.' }, base: shas['b-run-last-run']!, why: 'the deadline matters', author: HAND }),
  );
  shas['b-run'] = bh.revision;

  shas['c-plain'] = applied(await openCanvas(ws, { ledger: 'c-plain', problem: 'Search is slow.', expectedValue: 'Fast search.', why: 'opened', author: 'leo' })).revision;

  const d = applied(await openCanvas(ws, { ledger: 'd-ended', problem: 'Retire the old export job.', expectedValue: 'Nothing runs it.', why: 'opened', author: 'runner | run:r8' }));
  shas['d-ended-last-run'] = d.revision;
  applied(await grantRole(ws, { ledger: 'd-ended', who: 'leo', role: 'editor', why: 'leo closes it', author: 'runner | run:r8' }));
  shas['d-ended-last-run'] = (await listCanvasEntries(ws)).canvases.find((c) => c.ledger === 'd-ended')!.revision;
  applied(await freezeCanvas(ws, { ledger: 'd-ended', why: 'done', author: HAND }));
  shas['d-ended'] = applied(await abandonCanvas(ws, { ledger: 'd-ended', why: 'the job was kept after all', author: HAND })).revision;

  shas['e-empty'] = applied(await createCanvas(ws, { ledger: 'e-empty', why: 'a placeholder', author: HAND })).revision;
  return { ws, shas };
}

describe('canvas list and the sweep signal (docs/cli.md, "list")', () => {
  let ws: Workspace;
  let shas: Record<string, string>;
  let entries: Map<string, CanvasListEntry>;

  beforeAll(async () => {
    ({ ws, shas } = await sweepWorkspace());
    const list = await listCanvasEntries(ws);
    entries = new Map(list.canvases.map((c) => [c.ledger, c as CanvasListEntry]));
  });

  it('lists every canvas, sorted, at its revision, with its summary, last edit and questions', () => {
    expect([...entries.keys()]).toEqual(['a-hand', 'b-run', 'c-plain', 'd-ended', 'e-empty']);
    const a = entries.get('a-hand')!;
    expect(a).toMatchObject({
      revision: shas['a-hand'],
      summary: { text: 'Logins time out under load.', full: 'Logins time out under load.', cut: false },
      lastEdit: { commit: shas['a-hand'], op: 'insert', author: HAND, reason: 'checked the cache' },
      questions: { open: 1, answered: 1 },
      ending: null,
    });
    expect(entries.get('e-empty')).toMatchObject({ summary: null, questions: { open: 0, answered: 0 }, lastEdit: { op: 'create', node: null } });
  });

  it('carries the last write by a run and whether any run ever wrote', () => {
    const signal = Object.fromEntries([...entries].map(([l, e]) => [l, { writtenByRun: e.writtenByRun, lastRunWrite: e.lastRunWrite?.commit ?? null }]));
    expect(signal).toEqual({
      'a-hand': { writtenByRun: false, lastRunWrite: null },
      'b-run': { writtenByRun: true, lastRunWrite: shas['b-run-last-run'] },
      'c-plain': { writtenByRun: false, lastRunWrite: null },
      'd-ended': { writtenByRun: true, lastRunWrite: shas['d-ended-last-run'] },
      'e-empty': { writtenByRun: false, lastRunWrite: null },
    });
    expect(entries.get('b-run')!.lastRunWrite).toMatchObject({ op: 'grant', author: RUN });
    expect(entries.get('b-run')!.lastEdit).toMatchObject({ commit: shas['b-run'], author: HAND });
  });

  it('shows the latest ending, and says when the document was edited after it', async () => {
    expect(entries.get('d-ended')!.ending).toMatchObject({ kind: 'abandoned', commit: shas['d-ended'], reason: 'the job was kept after all', editedSince: false });
    const ws2 = tempWorkspace();
    const o = applied(await openCanvas(ws2, { ledger: 'f', problem: 'P.', expectedValue: 'E.', why: 'opened', author: HAND }));
    const f = applied(await freezeCanvas(ws2, { ledger: 'f', why: 'done', author: HAND }));
    applied(await insertNode(ws2, { ledger: 'f', after: o.nodes![1]!, payload: { text: 'Later.' }, base: f.revision, why: 'found later', author: HAND }));
    expect((await listCanvasEntries(ws2)).canvases[0]).toMatchObject({ ending: { kind: 'frozen', commit: f.revision, editedSince: true } });
    const text = await runMain(ws2, ['list']);
    expect(text.stdout).toContain(`  frozen at ${f.revision.slice(0, 7)}; edited since: done\n`);
  });

  it('--unwritten-by-runs keeps only the canvases no run ever wrote to', async () => {
    const only = await listCanvasEntries(ws, { unwrittenByRuns: true });
    expect(only.canvases.map((c) => c.ledger)).toEqual(['a-hand', 'c-plain', 'e-empty']);
    expect(readdirSync(join(ws.repo, '.git', 'canvas-cache'))).toContain('_list.json');
  });

  it('answers the same from cold caches: the facts are folded again from the chains', async () => {
    const cold = (await listCanvasEntries(ws)).canvases;
    rmSync(join(ws.repo, '.git', 'canvas-cache'), { recursive: true, force: true });
    expect((await listCanvasEntries(ws)).canvases).toEqual(cold);
  });

  it('reads a canvas again once its revision moved, and takes the others from the list cache', async () => {
    const before = (await listCanvasEntries(ws)).canvases;
    const cache = join(ws.repo, '.git', 'canvas-cache', '_list.json');
    expect(JSON.parse(readFileSync(cache, 'utf8')).entries['a-hand'].revision).toBe(shas['a-hand']);
    const q = applied(await insertNode(ws, { ledger: 'c-plain', into: 'root', payload: { question: 'Which index?' }, base: shas['c-plain']!, why: 'doubt', author: 'leo | run:r9' }));
    const after = new Map((await listCanvasEntries(ws)).canvases.map((c) => [c.ledger, c as CanvasListEntry]));
    expect(after.get('c-plain')).toMatchObject({ revision: q.revision, questions: { open: 1, answered: 0 }, writtenByRun: true, lastRunWrite: { commit: q.revision } });
    expect(before.filter((c) => c.ledger !== 'c-plain')).toEqual([...after.values()].filter((c) => c.ledger !== 'c-plain'));
    expect(JSON.parse(readFileSync(cache, 'utf8')).entries['c-plain'].revision).toBe(q.revision);
    shas['c-plain'] = q.revision;
  });

  it('on the command line: --json is the library object; the text names the summary, the ending and the sweep line', async () => {
    const json = await runMain(ws, ['list', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await listCanvasEntries(ws));
    const text = await runMain(ws, ['list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`a-hand  ${shas['a-hand']!.slice(0, 7)}  1 open, 1 answered\n  Logins time out under load.\n  last edit: insert `);
    expect(text.stdout).toContain(`  abandoned at ${shas['d-ended']!.slice(0, 7)}: the job was kept after all\n  last write by a run: grant by runner | run:r8, `);
    expect(text.stdout).toContain('  never written by any run');
    expect(text.stdout.trimEnd().endsWith('5 canvases')).toBe(true);
    const sweep = await runMain(ws, ['list', '--unwritten-by-runs', '--json']);
    expect(JSON.parse(sweep.stdout).canvases.map((c: CanvasListEntry) => c.ledger)).toEqual(['a-hand', 'e-empty']);
  });
});

describe('canvas list in odd workspaces', () => {
  it('is empty before the first create', async () => {
    const ws = tempWorkspace();
    expect(await listCanvasEntries(ws)).toEqual({ canvases: [] });
    const r = await runMain(ws, ['list']);
    expect(r.stdout).toBe('There is no canvas in this workspace yet.\n');
  });

  it('lists a canvas whose committed bytes do not parse as a failure with its code, and the others as usual', async () => {
    const ws = tempWorkspace();
    applied(await openCanvas(ws, { ledger: 'good', problem: 'P.', expectedValue: 'E.', why: 'opened', author: HAND }));
    const bad = applied(await createCanvas(ws, { ledger: 'bad', why: 'opened', author: HAND }));
    // A commit made with plain git that breaks the document, as canvas verify would catch.
    const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: ws.repo, encoding: 'utf8', input }).trim();
    const index = join(tempDir('canvas-list-index-'), 'index');
    const env = { ...process.env, GIT_INDEX_FILE: index };
    execFileSync('git', ['read-tree', 'refs/heads/main'], { cwd: ws.repo, env });
    const blob = git(['hash-object', '-w', '--stdin'], '<canvas ledger="bad" schema="2"><oops/></canvas>\n');
    execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},bad.xml`], { cwd: ws.repo, env });
    const tree = execFileSync('git', ['write-tree'], { cwd: ws.repo, env, encoding: 'utf8' }).trim();
    const main = git(['rev-parse', 'refs/heads/main']);
    const msg = `insert x: forged\n\nCanvas-Op: insert\nCanvas-Ledger: bad\nCanvas-Node: x\nCanvas-Author: ${HAND}\nCanvas-Base: ${bad.revision}\nCanvas-Previous: ${bad.revision}\n`;
    const forged = git(['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit-tree', tree, '-p', main, '-F', '-'], msg);
    git(['update-ref', 'refs/heads/main', forged]);
    git(['update-ref', 'refs/canvas/bad', forged]);
    const list = await listCanvasEntries(ws);
    expect(list.canvases.map((c) => c.ledger)).toEqual(['bad', 'good']);
    expect(list.canvases[0]).toMatchObject({ ledger: 'bad', revision: forged, error: { code: 'SCHEMA' } });
    expect(list.canvases[1]).toMatchObject({ ledger: 'good', questions: { open: 0, answered: 0 } });
  });
});
