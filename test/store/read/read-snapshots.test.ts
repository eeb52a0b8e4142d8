// The site build's batched read gives what a read of one canvas gives (docs/site.md, "How the
// build reads"), with its caches present, absent, behind, or of an earlier format, and reads no
// chain when every cache is at its head.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CanvasError } from '../../../src/model/canvas-error.js';
import { listCanvases } from '../../../src/store/repo/list-canvases.js';
import { replaceNode } from '../../../src/store/write/node-writes.js';
import { readCanvas } from '../../../src/store/read/read-canvas.js';
import { readSnapshot } from '../../../src/store/read/read-snapshot.js';
import { readSnapshots } from '../../../src/store/read/read-snapshots.js';
import { RepoReader } from '../../../src/store/repo/repo-reader.js';
import { AUTHOR } from '../../helpers/workspace.js';
import { exampleWorkspace } from '../../site/site-fixture.js';

describe('readSnapshots', () => {
  it('gives each canvas the snapshot readSnapshot gives, whatever the caches hold, and a bad canvas its error', async () => {
    const ws = await exampleWorkspace();
    const cache = join(ws.repo, '.git', 'canvas-cache');
    const compare = async (edits?: number) => {
      const refs = await listCanvases(ws);
      const reader = new RepoReader(ws);
      try {
        const batched = await readSnapshots(reader, refs, edits);
        for (const [i, { ledger }] of refs.entries()) expect(batched[i], ledger).toEqual(await readSnapshot(ws, { ledger, edits }));
        return batched;
      } finally {
        reader.close();
      }
    };
    // No caches at all: every chain is walked to its create (and the caches saved).
    rmSync(cache, { recursive: true, force: true });
    await compare();
    // The caches at every head, and a short walk.
    await compare(2);
    // More recent edits than the history cache keeps: the chains are walked for them.
    await compare(12);
    // With every cache at its head, no chain is walked: the recent edits come from the history
    // cache, and no head commit is asked of git.
    const asked: string[] = [];
    {
      const refs = await listCanvases(ws);
      const reader = new RepoReader(ws);
      const commits = reader.commits.bind(reader);
      reader.commits = (shas) => {
        asked.push(...shas);
        return commits(shas);
      };
      let endings: string[];
      try {
        endings = (await readSnapshots(reader, refs)).flatMap((snap) => (snap instanceof CanvasError || snap.ending === null ? [] : [snap.ending.commit]));
      } finally {
        reader.close();
      }
      // A canvas's latest commit is asked for only as its ending's (its date), never to walk.
      expect(asked.filter((sha) => refs.some((ref) => ref.revision === sha) && !endings.includes(sha))).toEqual([]);
    }
    // A history cache written before it kept the recent edits, or one whose recent edits are not
    // edit records: the chains are walked as before.
    for (const name of readdirSync(join(cache, 'history'))) {
      const path = join(cache, 'history', name);
      const { recent: _recent, ...old } = JSON.parse(readFileSync(path, 'utf8'));
      writeFileSync(path, JSON.stringify(name.startsWith('c') ? old : { ...old, recent: [{ commit: 1 }] }));
    }
    await compare();
    // The caches behind one canvas's head: the walk folds the newer commits onto them.
    const r = await readCanvas(ws, { ledger: 'concurrency' });
    const text = [...r.xml.matchAll(/<text id="([a-z0-9]+)"/g)][0]![1]!;
    expect((await replaceNode(ws, { ledger: 'concurrency', node: text, payload: { text: 'Edited for the batched read.' }, base: r.revision, why: 'an edit', author: AUTHOR })).outcome).toBe('applied');
    await compare();
    // A canvas whose document the schema refuses fails alone, with the code a read gives.
    const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: ws.repo, input, encoding: 'utf8' }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], '<canvas ledger="broken" schema="2"><div>no</div></canvas>\n');
    git(['update-ref', 'refs/canvas/broken', git(['-c', 'user.name=x', '-c', 'user.email=x@y', 'commit-tree', git(['mktree'], `100644 blob ${blob}\tbroken.xml\n`), '-m', 'outside'])]);
    const refs = [...(await listCanvases(ws)), { ledger: 'gone', revision: r.revision }];
    const reader = new RepoReader(ws);
    try {
      const got = await readSnapshots(reader, refs);
      const codes = got.map((s) => (s instanceof CanvasError ? s.code : 'ok'));
      expect(Object.fromEntries(refs.map((ref, i) => [ref.ledger, codes[i]]))).toEqual({
        broken: 'SCHEMA',
        concurrency: 'ok',
        gone: 'CANVAS_NOT_FOUND',
        'node-identity': 'ok',
        projections: 'ok',
        'store-substrate': 'ok',
      });
    } finally {
      reader.close();
    }
  });
});
